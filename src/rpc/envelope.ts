// JSON-RPC 2.0 framing: parse a body, validate each request, invoke, and
// serialise the answer. Transport-agnostic so HTTP and WebSocket share it.

import { AnswerTooLarge, DEFAULT_MAX_ANSWER_BYTES } from '../format/answer-budget.js';
import type { Logger } from './dispatch.js';
import { RpcError, type RpcErrorObject, internalError, invalidParams, invalidRequest, parseError, responseTooLarge } from './errors.js';
import { resultJson } from './shared-results.js';

export type RpcId = string | number | null;

/** The transport binds its CallContext, so the envelope only sees method and params. */
export type Invoke = (method: string, params: unknown[]) => Promise<unknown>;

export interface EnvelopeOptions {
  maxBatch: number;
  /** bytes of JSON one answer's result may hold, and a batch's results together (--max-response-bytes) */
  maxResultBytes?: number;
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

/**
 * What a response's result may still hold, and what it is refused as past that: the limit of one
 * answer, or what a batch's earlier results have left of it.
 */
interface Room {
  bytes: number;
  refusal: () => AnswerTooLarge;
}

/** The error answered for a result past its room. */
function tooLarge(room: Room): RpcErrorObject {
  const refusal = room.refusal();
  return responseTooLarge(refusal.message, refusal.limit).toJSON();
}

/** One response: its text, the bytes of its result's JSON, and whether that result was refused for its size. */
interface Answer {
  text: ResponseText;
  resultBytes: number;
  refused: boolean;
}

/**
 * Serialises one response; a result or error data that cannot be JSON-encoded (bigint, cycles)
 * becomes -32603. A result whose JSON passes `room` (or V8's longest string) is answered with the
 * size refusal instead — the few methods whose results a caller can make that large refuse them
 * while building them; this catches the rest once serialised.
 */
function responseText(id: RpcId, outcome: { result: unknown } | { error: RpcError }, room: Room, log?: Logger): Answer {
  const refused = (): Answer => ({ text: errorText(id, tooLarge(room)), resultBytes: 0, refused: true });
  try {
    if ('error' in outcome) return { text: errorText(id, outcome.error.toJSON()), resultBytes: 0, refused: false };
    const result = resultJson(outcome.result) ?? 'null';
    if (result.length > room.bytes) return refused();
    const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
    return { text: typeof result === 'string' ? `${head}${result}}` : [Buffer.from(head), result, CLOSE], resultBytes: result.length, refused: false };
  } catch (err) {
    if (err instanceof RangeError && /Invalid string length/.test(err.message)) return refused();
    log?.error('response not serialisable', err instanceof Error ? err.stack ?? err.message : err);
    return { text: errorText(id, internalError().toJSON()), resultBytes: 0, refused: false };
  }
}

async function outcomeOf(req: Request | Rejected, invoke: Invoke, log?: Logger): Promise<{ result: unknown } | { error: RpcError }> {
  if (req.kind === 'reject') return { error: req.error };
  try {
    return { result: await invoke(req.method, req.params) };
  } catch (err) {
    if (!(err instanceof RpcError)) log?.error(`unhandled error in ${req.method}`, err instanceof Error ? err.stack ?? err.message : err);
    return { error: err instanceof RpcError ? err : internalError() };
  }
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
  const limit = opts.maxResultBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  if (!Array.isArray(parsed)) {
    const req = classify(parsed);
    const outcome = await outcomeOf(req, invoke, opts.log);
    // Notifications still run for their side effects; only the answer is dropped.
    return req.notification ? undefined : responseText(req.id, outcome, { bytes: limit, refusal: () => new AnswerTooLarge(limit, 'the result') }, opts.log).text;
  }
  if (parsed.length === 0) return errorText(null, invalidRequest().toJSON());
  if (parsed.length > opts.maxBatch) {
    return errorText(null, invalidRequest(`batch too large: ${parsed.length} requests, limit ${opts.maxBatch}`).toJSON());
  }
  // Sequential on purpose: a batch like [sendRawTransaction, getTransactionReceipt]
  // must observe its own earlier effects, as it does on geth. Its results share one limit: once
  // they pass it, the rest of the batch is not run but answered with the refusal (as geth does).
  const room: Room = { bytes: limit, refusal: () => new AnswerTooLarge(limit, "the batch's results together") };
  const parts: ResponseText[] = [];
  let full = false;
  for (const raw of parsed) {
    const req = classify(raw);
    if (full) {
      if (!req.notification) parts.push(errorText(req.id, tooLarge(room)));
      continue;
    }
    const outcome = await outcomeOf(req, invoke, opts.log);
    if (req.notification) continue;
    const answer = responseText(req.id, outcome, room, opts.log);
    room.bytes -= answer.resultBytes;
    full = answer.refused;
    parts.push(answer.text);
  }
  return parts.length === 0 ? undefined : batchText(parts);
}
