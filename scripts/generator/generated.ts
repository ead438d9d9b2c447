/** generated/: the node's types, method table, validators and their runtime, from openrpc.json. */
import path from "node:path";
import { readDocument } from "../../shared/contract/document.js";
import { projectRoot } from "../../shared/contract/root.js";
import { renderIndex } from "./index-file.js";
import { renderMethods } from "./methods.js";
import { buildModel } from "./model.js";
import { writeGeneratedFiles } from "./output.js";
import { renderTypes } from "./typescript.js";
import { renderValidators } from "./validators.js";

/** Renders every file of generated/ from a parsed OpenRPC document (file name → contents; output is deterministic). */
export function renderFiles(doc: unknown): Map<string, string> {
  const model = buildModel(doc);
  return new Map<string, string>([
    ["index.ts", renderIndex()],
    ["methods.ts", renderMethods(model)],
    ["types.ts", renderTypes(model)],
    ...renderValidators(model),
  ]);
}

/**
 * Generates into `outDir` (default generated/) from the document at `docPath` (default openrpc.json). Unchanged files
 * are not rewritten; stale files carrying the generated header are removed. Returns the paths of the generated files.
 */
export function generate(docPath?: string, outDir?: string): string[] {
  const root = docPath && outDir ? undefined : projectRoot();
  const doc = path.resolve(docPath ?? path.join(root!, "openrpc.json"));
  const out = path.resolve(outDir ?? path.join(root!, "generated"));
  return writeGeneratedFiles(out, renderFiles(readDocument(doc)));
}
