/**
 * The generator's entry: openrpc.json → everything derived from it.
 *
 *   npm run generate                        # generated/, the client SDKs (clients/typescript/src/generated/,
 *                                           # clients/python/evm_node_client/{types,methods}.py), the API reference
 *                                           # (docs/api.md) and the API changelog (docs/api-changelog.md, from the
 *                                           # released contracts in contract/released/ and openrpc.json)
 *   tsx scripts/generate.ts DOC OUT_DIR     # only generated/'s files, from DOC into OUT_DIR
 *
 * The pieces live in scripts/generator/ (generated.ts, client.ts, docs.ts and what they share); output is
 * deterministic: no timestamps, methods and components sorted by name.
 */
import path from "node:path";
import { writeChangelog } from "../tools/contract/changelog.js";
import { DocumentError } from "../shared/contract/document.js";
import { RefError } from "../shared/contract/refs.js";
import { projectRoot } from "../shared/contract/root.js";
import { generateClient } from "./generator/client.js";
import { generateDocs } from "./generator/docs.js";
import { generate } from "./generator/generated.js";
import { GenerateError } from "./generator/model.js";
import { generatePythonClient } from "./generator/python-client.js";

function main(): void {
  try {
    const [docArg, outArg] = process.argv.slice(2);
    const written = generate(docArg, outArg);
    if (docArg === undefined) written.push(...generateClient(), ...generatePythonClient(), ...generateDocs(), writeChangelog(projectRoot()));
    for (const p of written) console.log(`generated ${path.relative(process.cwd(), p)}`);
  } catch (e) {
    const known = e instanceof GenerateError || e instanceof DocumentError || e instanceof RefError;
    console.error(known ? `generate: ${(e as Error).message}` : e);
    process.exitCode = 1;
  }
}

main();
