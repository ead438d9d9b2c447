// Every JSON-RPC error the node answers through the test helpers (rpc.ts, ws-rpc.ts), by method and code. At the end of
// the suite, test/contract/declared-errors.spec.ts checks each against the codes the method declares in openrpc.json:
// an error the node can send but the contract does not declare is a lint failure found by running the node.

import { declaredErrors } from '../../tools/contract/diff/diff.js';
import { isObject, type JsonObject } from '../../shared/contract/json.js';
import { deref } from '../../shared/contract/refs.js';
import { requestCalls } from './request-calls.js';

/** Errors answered before any method is reached (bad JSON, a bad envelope): they belong to no method. */
export const ENVELOPE_CODES: ReadonlySet<number> = new Set([-32700, -32600]);

/** method → code → the first message seen with it. */
export type ErrorLog = Map<string, Map<number, string>>;

const log: ErrorLog = new Map();

export function recordError(method: string, code: number, message: string, into: ErrorLog = log): void {
  const codes = into.get(method) ?? new Map<number, string>();
  if (!codes.has(code)) codes.set(code, message);
  into.set(method, codes);
}

/** Records the errors of a request (or batch) and its parsed response (or batch of responses), paired by id. */
export function recordExchange(request: unknown, response: unknown, into: ErrorLog = log): void {
  const methods = new Map<unknown, string>();
  for (const r of requestCalls(request)) {
    if (isObject(r) && typeof r.method === 'string' && 'id' in r && r.id !== null) methods.set(r.id, r.method);
  }
  for (const answer of Array.isArray(response) ? response : [response]) {
    if (!isObject(answer) || !isObject(answer.error) || typeof answer.error.code !== 'number') continue;
    const method = methods.get(answer.id);
    if (method !== undefined) recordError(method, answer.error.code, String(answer.error.message), into);
  }
}

export function recordedErrors(): ErrorLog {
  return log;
}

export interface UndeclaredError {
  method: string;
  code: number;
  message: string;
  declared: number[];
}

/**
 * The recorded errors a method of `doc` does not declare. Envelope errors belong to no method, and methods the contract
 * does not have (tests send unknown ones on purpose) declare nothing. -32603 means a bug, unless a method declares it on
 * purpose (eth_simulateV1 answers with geth's -32603 where execution-apis expects it).
 */
export function undeclaredErrors(doc: JsonObject, recorded: ErrorLog): UndeclaredError[] {
  const methods = new Map<string, JsonObject>();
  for (const raw of Array.isArray(doc.methods) ? doc.methods : []) {
    const m = deref<JsonObject>(doc, raw);
    if (typeof m.name === 'string') methods.set(m.name, m);
  }
  const out: UndeclaredError[] = [];
  for (const [name, codes] of [...recorded].sort(([a], [b]) => a.localeCompare(b))) {
    const method = methods.get(name);
    if (method === undefined) continue;
    const declared = [...declaredErrors(doc, method).keys()];
    for (const [code, message] of codes) {
      if (!ENVELOPE_CODES.has(code) && !declared.includes(code)) out.push({ method: name, code, message, declared });
    }
  }
  return out;
}
