// Minimal JSON-RPC client for tests: no library in between, so tests see the wire format. Every error answered
// is recorded for the declared-errors check (declared-errors.ts); with EVM_NODE_RECORD_TXS set, every raw
// transaction sent, for the differential test (recorded-txs.ts).
import { recordExchange } from './declared-errors.js';
import { recordSentTransactions } from './recorded-txs.js';

export class RpcCallError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcCallError';
  }
}

export interface RawResponse {
  status: number;
  headers: Headers;
  /** Parsed body, or undefined when the body is empty or not JSON. */
  json: unknown;
  text: string;
}

let nextId = 1;

/** POSTs `body` (a string is sent verbatim, anything else JSON-encoded). */
export async function rpcRaw(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  recordSentTransactions(url, body);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  recordExchange(body, json);
  return { status: res.status, headers: res.headers, json, text };
}

export async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const id = nextId++;
  const { status, json, text } = await rpcRaw(url, { jsonrpc: '2.0', id, method, params });
  const msg = json as { id?: unknown; result?: T; error?: { code: number; message: string; data?: unknown } } | undefined;
  if (!msg || typeof msg !== 'object') throw new Error(`${method}: HTTP ${status}, non-JSON body: ${text.slice(0, 200)}`);
  if (msg.error) throw new RpcCallError(msg.error.code, msg.error.message, msg.error.data);
  if (msg.id !== id) throw new Error(`${method}: response id ${JSON.stringify(msg.id)} does not match ${id}`);
  return msg.result as T;
}
