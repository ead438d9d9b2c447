// JSON-RPC over same-origin POST /.

import type { JsonObject } from "../shared/contract/json.js";

export interface Outcome {
  /** the JSON-RPC request as sent */
  request: JsonObject;
  /** the parsed response body, when there was one */
  response?: unknown;
  /** HTTP status, or 0 when the request never got an answer */
  status: number;
  ms: number;
  /** a failure before any JSON-RPC answer (network, non-JSON body) */
  failure?: string;
}

let nextRequestId = 1;

export async function send(method: string, params: unknown[]): Promise<Outcome> {
  const request: JsonObject = { jsonrpc: "2.0", id: nextRequestId++, method, params };
  const started = performance.now();
  try {
    const res = await fetch("/", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request),
      credentials: "same-origin",
    });
    const text = await res.text();
    const ms = Math.round(performance.now() - started);
    try {
      return { request, response: JSON.parse(text), status: res.status, ms };
    } catch {
      return { request, status: res.status, ms, failure: `HTTP ${res.status}: the body is not JSON: ${text.slice(0, 300)}` };
    }
  } catch (error) {
    return { request, status: 0, ms: Math.round(performance.now() - started), failure: `request failed: ${(error as Error).message}` };
  }
}
