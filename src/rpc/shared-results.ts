// Results shared between requests (formatted once and kept by the method that made them, such as
// a block or a proof) are serialised once too: their JSON is kept beside them while they live.
// A result joined from such parts (a pool's content) keeps its JSON encoded instead: at a megabyte,
// handing the socket bytes beats having it encode the text again (a block's ~70 KB does not gain:
// copying it into each answer costs more than the encode).

const texts = new WeakMap<object, string | Buffer>();
const shared = new WeakSet<object>();

/** Marks `result` as shared and never to be changed again, so its JSON can be kept; answers it. */
export function sharedResult<T extends object>(result: T): T {
  shared.add(result);
  return result;
}

/**
 * Marks `result` as shared, with `json` as its encoded JSON: for a result joined from parts whose
 * JSON is already kept, rather than serialised again. `json` must parse to a value equal to `result`.
 */
export function composedResult<T extends object>(result: T, json: Buffer): T {
  shared.add(result);
  texts.set(result, json);
  return result;
}

/** The JSON of a result: made once for a shared one, every time for the rest. */
export function resultJson(result: unknown): string | Buffer | undefined {
  if (typeof result !== 'object' || result === null || !shared.has(result)) return JSON.stringify(result);
  let text = texts.get(result);
  if (text === undefined) {
    text = JSON.stringify(result);
    texts.set(result, text);
  }
  return text;
}
