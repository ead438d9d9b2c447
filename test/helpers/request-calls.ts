// The calls of a JSON-RPC request body as the test helpers send it: a string or a parsed value, one call or a batch.

/** Each call of `request` (a body string or its parsed value); none when the string is not JSON. */
export function requestCalls(request: unknown): unknown[] {
  let parsed = request;
  if (typeof request === 'string') {
    try {
      parsed = JSON.parse(request);
    } catch {
      return [];
    }
  }
  return Array.isArray(parsed) ? parsed : [parsed];
}
