import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isObject, type JsonObject } from './json.js';
import { projectRoot } from './root.js';

/** A contract file that cannot be read as an OpenRPC document. */
export class DocumentError extends Error {
  override name = 'DocumentError';
}

/** Parses OpenRPC JSON text, naming `source` in the error when it is not JSON. */
export function parseDocument(text: string, source: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DocumentError(`${source} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(value)) throw new DocumentError(`${source}: the top level must be an object`);
  return value;
}

/** Reads and parses the OpenRPC document at `path`. */
export function readDocument(path: string): JsonObject {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new DocumentError(`cannot read ${path}: ${(error as Error).message}`);
  }
  return parseDocument(text, path);
}

/** The project's openrpc.json: the contract the node serves (rpc.discover) and is built from. */
export function loadContract(): JsonObject {
  return readDocument(join(projectRoot(), 'openrpc.json'));
}
