// Where a contract to diff comes from: a file, or a git revision of the project's openrpc.json (`main`, `HEAD~3`,
// `v0.1.0`, or `REV:path/to/openrpc.json`).

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { DocumentError, parseDocument, readDocument } from '../../shared/contract/document.js';
import type { JsonObject } from '../../shared/contract/json.js';

export interface ContractSource {
  /** How the document is named in reports: the file path or `REV:path`. */
  label: string;
  doc: JsonObject;
}

/** Reads `spec` as a file when one exists at that path, else as a git revision of `openrpc.json` in `root`. */
export function readContractSource(spec: string, root: string): ContractSource {
  if (existsSync(spec)) return { label: spec, doc: readDocument(spec) };
  const object = spec.includes(':') ? spec : `${spec}:openrpc.json`;
  let text: string;
  try {
    text = execFileSync('git', ['show', object], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new DocumentError(`${spec} is neither a file nor a git revision with that file (git show ${object}: ${stderr || (error as Error).message})`);
  }
  return { label: object, doc: parseDocument(text, object) };
}
