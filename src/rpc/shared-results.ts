// Results shared between requests (formatted once and kept by the method that made them, such as
// a block or a proof) are serialised once too: their JSON is kept beside them while they live.

const texts = new WeakMap<object, string>();
const shared = new WeakSet<object>();

/** Marks `result` as shared and never to be changed again, so its JSON can be kept; answers it. */
export function sharedResult<T extends object>(result: T): T {
  shared.add(result);
  return result;
}

/** The JSON of a result: made once for a shared one, every time for the rest. */
export function resultJson(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null || !shared.has(result)) return JSON.stringify(result);
  let text = texts.get(result);
  if (text === undefined) {
    text = JSON.stringify(result);
    texts.set(result, text);
  }
  return text;
}
