// JSON-RPC 2.0 framing: parse a body, validate each request, invoke, and
// serialise the answer. Transport-agnostic so HTTP and WebSocket share it.

import type { Logger } from './dispatch.js';
import { RpcError, type RpcErrorObject, internalError, invalidParams, invalidRequest, parseError } from './errors.js';
import { resultJson } from './shared-results.js';

export type RpcId = string | number | null;

/** The transport binds its CallContext, so the envelope only sees method and params. */
export type Invoke = (method: string, params: unknown[]) => Promise<unknown>;

export interface EnvelopeOptions {
  maxBatch: number;
  log?: Logger;
}

type Request = { kind: 'call'; id: RpcId; notification: boolean; method: string; params: unknown[] };
type Rejected = { kind: 'reject'; id: RpcId; notification: boolean; error: RpcError };

function isValidId(id: unknown): id is RpcId {
  // JSON.parse turns 1e999 into Infinity, which would serialise back as null.
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

function classify(raw: unknown): Request | Rejected {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { kind: 'reject', id: null, notification: false, error: invalidRequest() };
  }
  const msg = raw as Record<string, unknown>;
  const hasId = Object.hasOwn(msg, 'id');
  // Per the spec's examples, a malformed request is answered even without an id.
  if (hasId && !isValidId(msg.id)) return { kind: 'reject', id: null, notification: false, error: invalidRequest() };
  const id = hasId ? (msg.id as RpcId) : null;
  if (msg.jsonrpc !== '2.0' || typeof msg.method !== 'string') {
    return { kind: 'reject', id, notification: false, error: invalidRequest() };
  }
  const notification = !hasId;
  const params = msg.params;
  if (params === undefined) return { kind: 'call', id, notification, method: msg.method, params: [] };
  if (Array.isArray(params)) return { kind: 'call', id, notification, method: msg.method, params };
  // By-name params are legal JSON-RPC, just not something our positional methods accept.
  if (typeof params === 'object' && params !== null) {
    return { kind: 'reject', id, notification, error: invalidParams('non-array params are not supported') };
  }
  return { kind: 'reject', id, notification: false, error: invalidRequest() };
}

function errorText(id: RpcId, error: RpcErrorObject): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error });
}

/**
 * A response's JSON: text, or — when it carries a result joined from kept bytes — those bytes in
 * pieces, written out one after another rather than copied into one buffer first (a pool's
 * content is a megabyte and more).
 */
export type ResponseText = string | readonly Buffer[];

const CLOSE = Buffer.from('}');

/** Serialises one response; a result or error data that cannot be JSON-encoded (bigint, cycles) becomes -32603. */
function responseText(id: RpcId, outcome: { result: unknown } | { error: RpcError }, log?: Logger): ResponseText {
  try {
    if ('error' in outcome) return errorText(id, outcome.error.toJSON());
    const result = resultJson(outcome.result) ?? 'null';
    const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
    return typeof result === 'string' ? `${head}${result}}` : [Buffer.from(head), result, CLOSE];
  } catch (err) {
    log?.error('response not serialisable', err instanceof Error ? err.stack ?? err.message : err);
    return errorText(id, internalError().toJSON());
  }
}

async function run(req: Request | Rejected, invoke: Invoke, log?: Logger): Promise<ResponseText | undefined> {
  let outcome: { result: unknown } | { error: RpcError };
  if (req.kind === 'reject') {
    outcome = { error: req.error };
  } else {
    try {
      outcome = { result: await invoke(req.method, req.params) };
    } catch (err) {
      if (!(err instanceof RpcError)) log?.error(`unhandled error in ${req.method}`, err instanceof Error ? err.stack ?? err.message : err);
      outcome = { error: err instanceof RpcError ? err : internalError() };
    }
  }
  // Notifications still run for their side effects; only the answer is dropped.
  return req.notification ? undefined : responseText(req.id, outcome, log);
}

/** A batch's answers as one JSON array: text while every answer is text. */
function batchText(parts: ResponseText[]): ResponseText {
  if (parts.every((part) => typeof part === 'string')) return `[${parts.join(',')}]`;
  const chunks: Buffer[] = [];
  parts.forEach((part, i) => {
    chunks.push(Buffer.from(i === 0 ? '[' : ','));
    if (typeof part === 'string') chunks.push(Buffer.from(part));
    else chunks.push(...part);
  });
  chunks.push(Buffer.from(']'));
  return chunks;
}

/** A response's JSON as one string or buffer, for a transport that sends it whole. */
export const wholeText = (text: ResponseText): string | Buffer => (typeof text === 'string' ? text : Buffer.concat(text));

export async function handleRpcBody(body: string, invoke: Invoke, opts: EnvelopeOptions): Promise<ResponseText | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.charCodeAt(0) === 0xfeff ? body.slice(1) : body);
  } catch {
    return errorText(null, parseError().toJSON());
  }
  if (!Array.isArray(parsed)) return run(classify(parsed), invoke, opts.log);
  if (parsed.length === 0) return errorText(null, invalidRequest().toJSON());
  if (parsed.length > opts.maxBatch) {
    return errorText(null, invalidRequest(`batch too large: ${parsed.length} requests, limit ${opts.maxBatch}`).toJSON());
  }
  // Sequential on purpose: a batch like [sendRawTransaction, getTransactionReceipt]
  // must observe its own earlier effects, as it does on geth.
  const parts: ResponseText[] = [];
  for (const raw of parsed) {
    const text = await run(classify(raw), invoke, opts.log);
    if (text !== undefined) parts.push(text);
  }
  return parts.length === 0 ? undefined : batchText(parts);
}
