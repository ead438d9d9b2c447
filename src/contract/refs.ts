// Local `$ref` resolution ("#/components/schemas/Block") in an OpenRPC document: the one implementation used by the
// generator, the contract tools, the tests and the playground page (served to the browser as is: no Node APIs).

import { isObject } from './json.js';

const COMPONENT_SCHEMA_PREFIX = '#/components/schemas/';

/** A `$ref` that is not local, points nowhere, or loops. */
export class RefError extends Error {
  override name = 'RefError';
}

/** Chains of `$ref` longer than this are taken for cycles. */
const MAX_REF_CHAIN = 32;

/** `#/components/schemas/A~1B` → ["components", "schemas", "A/B"] (RFC 6901, URI fragment form). */
export function pointerTokens(ref: string): string[] {
  if (!ref.startsWith('#')) throw new RefError(`unsupported non-local $ref "${ref}"`);
  return ref
    .slice(1)
    .split('/')
    .slice(1)
    .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value a local JSON pointer (`#/a/b`) names in `doc`. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  let cur: unknown = doc;
  for (const p of pointerTokens(ref)) {
    if (Array.isArray(cur) && /^\d+$/.test(p)) cur = cur[Number(p)];
    else if (isObject(cur) && Object.hasOwn(cur, p)) cur = cur[p];
    else throw new RefError(`unresolvable $ref "${ref}"`);
  }
  return cur;
}

/** The components/schemas key a `$ref` names directly (`#/components/schemas/Block` → `Block`), or undefined. */
export function componentName(ref: string): string | undefined {
  if (!ref.startsWith(COMPONENT_SCHEMA_PREFIX)) return undefined;
  const key = ref.slice(COMPONENT_SCHEMA_PREFIX.length);
  return key.includes('/') ? undefined : decodeURIComponent(key).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The `$ref` of a reference object (`{ "$ref": "#/..." }`), or undefined. */
export function refOf(value: unknown): string | undefined {
  return isObject(value) && typeof value.$ref === 'string' ? value.$ref : undefined;
}

/** Follows reference objects (content descriptors, examples, errors, schemas) to what they name. */
export function deref<T = unknown>(doc: unknown, value: unknown): T {
  let cur = value;
  for (let depth = 0; ; depth++) {
    const ref = refOf(cur);
    if (ref === undefined) return cur as T;
    if (depth >= MAX_REF_CHAIN) throw new RefError(`$ref cycle at "${ref}"`);
    cur = resolvePointer(doc, ref);
  }
}
