// Results shared between requests (formatted once and kept by the method that made them, such as
// a block or a proof) are serialised once too: their JSON is kept beside them while they live,
// already encoded, so answering with one again costs a copy rather than a stringify and an encode.

const encoded = new WeakMap<object, Buffer>();
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
  encoded.set(result, json);
  return result;
}

/** The JSON of a result: made and encoded once for a shared one, made every time for the rest. */
export function resultJson(result: unknown): string | Buffer | undefined {
  if (typeof result !== 'object' || result === null || !shared.has(result)) return JSON.stringify(result);
  let json = encoded.get(result);
  if (json === undefined) {
    json = Buffer.from(JSON.stringify(result));
    encoded.set(result, json);
  }
  return json;
}
