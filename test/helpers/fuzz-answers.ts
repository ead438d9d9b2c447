// What the fuzz specs make of one answer: sent raw, timed, and judged as a JSON-RPC answer that is
// no internal error and, when a result, within its method's result schema.
import { resultError, type MethodName } from '../../generated/index.js';

export interface Answer {
  id: number;
  status: number;
  ms: number;
  body: { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
  text: string;
}

let nextId = 1;

export async function send(url: string, method: string, params: unknown): Promise<Answer> {
  const id = nextId++;
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
  const text = await res.text();
  const ms = performance.now() - started;
  let body: Answer['body'];
  try {
    body = JSON.parse(text) as Answer['body'];
  } catch {
    body = undefined;
  }
  return { id, status: res.status, ms, body, text };
}

/** What is wrong with one answer, or undefined when it is a proper answer within `slowMs`. */
export function problemWith(method: MethodName, answer: Answer, declared: ReadonlySet<number>, slowMs: number): string | undefined {
  const { body } = answer;
  if (answer.status !== 200 || body === undefined) return `HTTP ${answer.status}, body ${answer.text.slice(0, 200)}`;
  if (body.jsonrpc !== '2.0' || body.id !== answer.id) return `not a JSON-RPC answer to id ${answer.id}: ${answer.text.slice(0, 200)}`;
  if (answer.ms > slowMs) return `took ${Math.round(answer.ms)} ms`;
  if (body.error !== undefined) {
    if (!Number.isInteger(body.error.code) || typeof body.error.message !== 'string') return `malformed error ${JSON.stringify(body.error)}`;
    // -32603 means a bug, unless the method declares it on purpose: eth_simulateV1 answers geth's
    // code, in geth's words ("err: … (supplied gas N)"), where execution-apis names none.
    if (body.error.code === -32603 && !(declared.has(-32603) && String(body.error.message).startsWith('err: '))) return `-32603 ${String(body.error.message)}`;
    return undefined;
  }
  if (!('result' in body)) return `neither result nor error: ${answer.text.slice(0, 200)}`;
  const outside = resultError(method, body.result);
  return outside === null ? undefined : `result outside the contract: ${outside}`;
}
