/** generated/index.ts: the runtime template (index-template.ts, real TypeScript) below the generated header. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../../shared/contract/root.js";
import { HEADER } from "./output.js";

const TEMPLATE = path.join("scripts", "generator", "index-template.ts");
const START = "/* eslint-disable */\n";

let cached: string | undefined;

export function renderIndex(): string {
  if (cached === undefined) {
    const text = readFileSync(path.join(projectRoot(), TEMPLATE), "utf8");
    const start = text.indexOf(START);
    if (start < 0) throw new Error(`${TEMPLATE} lacks its ${JSON.stringify(START.trim())} line`);
    cached = `${HEADER}\n${text.slice(start).replaceAll('"../../generated/', '"./')}`;
  }
  return cached;
}
