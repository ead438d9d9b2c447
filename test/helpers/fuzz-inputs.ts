// Schema-derived bad inputs for every method of the contract: a valid baseline call per method (its
// first example, or values made from its param schemas), then one change at a time — a param or an
// object member replaced by a wrong type, a boundary or overflow number, an oversized or odd-length
// string; a member of an object holding only its required members (so no other member covers for
// it: a priority fee at 2^256-1 with no fee cap), and members nested deeper (a simulated call's fees)
// set to the number edges — plus the envelope-level mistakes (missing, extra and by-name params).
import { deref } from '../../shared/contract/refs.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown>;
type Doc = Record<string, unknown>;

export interface FuzzCall {
  /** what was changed, for failure reports */
  label: string;
  /** the JSON-RPC `params` member as sent (not always an array) */
  params: unknown;
}

const DEV_ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

/** Values a hex-quantity field may be given that sit on the edges of 64 and 256 bits. */
const HEX_EDGES: Json[] = [
  '0x0',
  '0x00',
  '0x1000001', // one above the EIP-7825 per-transaction gas cap
  '0x1c9c380', // 30,000,000: the default block gas limit, sent by many clients as `gas`
  '0x7fffffffffffffff',
  '0xfffffffffffffffe',
  '0xffffffffffffffff',
  '0x10000000000000000',
  `0x${'f'.repeat(64)}`,
  `0x${'0'.repeat(63)}1`,
];

/** The edges a member is set to where it is fuzzed alone or nested: zero, and just inside and past 64 bits, and 2^256-1. */
const NUMBER_EDGES: Json[] = ['0x0', '0xffffffffffffffff', '0x10000000000000000', `0x${'f'.repeat(64)}`];

/** Wrong types and malformed strings, for any field. */
const WRONG: Json[] = [
  null,
  true,
  -1,
  1.5,
  1e308,
  2 ** 53,
  '',
  'bogus',
  '0x',
  '0xzz',
  '0x123', // odd length
  ' 0x1',
  '-0x1',
  '0X1',
  `0x${'f'.repeat(65)}`,
  `0x${'ab'.repeat(40)}`,
  {},
  [],
  [null],
  { nested: { deeper: [1, 2, 3] } },
];

/** Large values, sent only as whole params: one copy each keeps the run short. */
const OVERSIZED: Json[] = [`0x${'ab'.repeat(100_000)}`, 'x'.repeat(200_000), Array.from({ length: 2_000 }, () => '0x1')];

const INTEGER_EDGES: Json[] = [0, 2 ** 31, 2 ** 32, Number.MAX_SAFE_INTEGER, 2 ** 64, 1e21];
const TAGS: Json[] = ['latest', 'pending', 'earliest', 'safe', 'finalized', 'LATEST'];

function resolve(doc: Doc, schema: unknown): Schema {
  return deref<Schema>(doc, schema) ?? {};
}

/** A value the schema accepts, for building baselines where a method has no example. */
export function sample(doc: Doc, schemaIn: unknown, depth = 0): Json {
  const schema = resolve(doc, schemaIn);
  if (depth > 6) return null;
  if (Array.isArray(schema.enum)) return schema.enum[0] as Json;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const nonNull = options.find((o) => resolve(doc, o).type !== 'null') ?? options[0];
      return sample(doc, nonNull, depth + 1);
    }
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'array':
      return [];
    case 'object': {
      const out: Record<string, Json> = {};
      const props = (schema.properties ?? {}) as Record<string, unknown>;
      for (const name of (schema.required ?? []) as string[]) out[name] = sample(doc, props[name], depth + 1);
      return out;
    }
    case 'string': {
      const pattern = String(schema.pattern ?? '');
      if (pattern.includes('{40}')) return DEV_ADDRESS;
      if (pattern.includes('{64}$')) return `0x${'0'.repeat(64)}`;
      if (pattern.startsWith('^0x')) return '0x1';
      return 'x';
    }
    default:
      return null;
  }
}

/** The baseline call of `methodName`: its first example's params, or values made from its param schemas. */
export function baselineCall(doc: Doc, methodName: string): Json[] {
  return baseline(doc, methodOf(doc, methodName));
}

export function methodOf(doc: Doc, methodName: string): Schema {
  const method = ((doc.methods ?? []) as Schema[]).find((m) => m.name === methodName);
  if (method === undefined) throw new Error(`no method ${methodName} in the contract`);
  return method;
}

function baseline(doc: Doc, method: Schema): Json[] {
  const params = (method.params as unknown[]).map((p) => resolve(doc, p));
  const example = ((method.examples ?? []) as unknown[]).map((e) => resolve(doc, e))[0];
  const given = new Map(((example?.params ?? []) as Schema[]).map((p) => [p.name as string, p.value as Json]));
  const out: Json[] = [];
  for (const param of params) {
    const name = param.name as string;
    if (given.has(name)) out.push(given.get(name)!);
    else if (param.required === true) out.push(sample(doc, param.schema));
    else break;
  }
  return out;
}

/** Property names of an object schema, looking through oneOf/anyOf/$ref. */
function membersOf(doc: Doc, schemaIn: unknown, depth = 0): string[] {
  const schema = resolve(doc, schemaIn);
  if (depth > 4) return [];
  const names = new Set(Object.keys((schema.properties ?? {}) as object));
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    for (const option of (schema[key] ?? []) as unknown[]) for (const n of membersOf(doc, option, depth + 1)) names.add(n);
  }
  return [...names];
}

/** The schema one step into `schemaIn` (looking through oneOf/anyOf/allOf): a member's, or for 0 an array's items. */
function stepInto(doc: Doc, schemaIn: unknown, step: string | number, depth = 0): Schema | undefined {
  const schema = resolve(doc, schemaIn);
  if (depth > 4) return undefined;
  if (typeof step === 'number' && schema.items !== undefined) return resolve(doc, schema.items);
  const member = typeof step === 'string' ? (schema.properties as Record<string, unknown> | undefined)?.[step] : undefined;
  if (member !== undefined) return resolve(doc, member);
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    for (const option of (schema[key] ?? []) as unknown[]) {
      const found = stepInto(doc, option, step, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

type Path = (string | number)[];

/** Member paths below the top level of an object schema (through arrays of objects, their first item), at most `levels` deep. */
function nestedPaths(doc: Doc, schema: unknown, prefix: Path = [], levels = 3): Path[] {
  if (prefix.length >= levels) return [];
  const out: Path[] = [];
  for (const member of membersOf(doc, schema)) {
    const path = [...prefix, member];
    if (prefix.length > 0) out.push(path);
    const child = stepInto(doc, schema, member);
    if (child === undefined) continue;
    if (membersOf(doc, child).length > 0) out.push(...nestedPaths(doc, child, path, levels));
    const items = stepInto(doc, child, 0);
    if (items !== undefined && membersOf(doc, items).length > 0) out.push(...nestedPaths(doc, items, [...path, 0], levels + 1));
  }
  return out;
}

/** A copy of `value` with `path` set to `leaf`, the objects and arrays on the way made when missing. */
function withPath(value: Json | undefined, path: Path, leaf: Json): Json {
  if (path.length === 0) return leaf;
  const [step, ...rest] = path;
  if (typeof step === 'number') {
    const array = Array.isArray(value) ? [...value] : [];
    array[step] = withPath(array[step], rest, leaf);
    return array;
  }
  const object = value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value } : {};
  object[step] = withPath(object[step], rest, leaf);
  return object;
}

const short = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…(${text.length} chars)` : text;
};

/** Every fuzz call for `methodName`: param by param, member by member, then the envelope mistakes. */
export function fuzzCalls(doc: Doc, methodName: string): FuzzCall[] {
  const method = methodOf(doc, methodName);
  const params = (method.params as unknown[]).map((p) => resolve(doc, p));
  const base = baseline(doc, method);
  const calls: FuzzCall[] = [{ label: 'baseline', params: base }];
  const withParam = (index: number, value: Json): Json[] => {
    const out = base.slice(0, Math.max(base.length, index + 1));
    for (let i = 0; i < index; i++) if (out[i] === undefined) out[i] = sample(doc, params[i].schema);
    out[index] = value;
    return out;
  };
  params.forEach((param, index) => {
    const name = param.name as string;
    for (const value of [...WRONG, ...HEX_EDGES, ...INTEGER_EDGES, ...TAGS, ...OVERSIZED]) {
      calls.push({ label: `${name} = ${short(value)}`, params: withParam(index, value) });
    }
    const current = base[index] ?? sample(doc, param.schema);
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return;
    for (const member of membersOf(doc, param.schema)) {
      for (const value of [...WRONG, ...HEX_EDGES, ...INTEGER_EDGES]) {
        calls.push({ label: `${name}.${member} = ${short(value)}`, params: withParam(index, { ...current, [member]: value }) });
      }
    }
    calls.push({ label: `${name} with an unknown member`, params: withParam(index, { ...current, unknownMember: '0x1' }) });
    const required = new Set((resolve(doc, param.schema).required ?? []) as string[]);
    const minimal = Object.fromEntries(Object.entries(current).filter(([member]) => required.has(member)));
    for (const member of membersOf(doc, param.schema)) {
      for (const value of NUMBER_EDGES) {
        calls.push({ label: `${name} (required members only).${member} = ${short(value)}`, params: withParam(index, { ...minimal, [member]: value }) });
      }
    }
    for (const path of nestedPaths(doc, param.schema)) {
      for (const value of [null, ...NUMBER_EDGES]) {
        calls.push({ label: `${name}.${path.join('.')} = ${short(value)}`, params: withParam(index, withPath(current, path, value)) });
      }
    }
  });
  calls.push(
    { label: 'no params', params: [] },
    { label: 'one param too many', params: [...base, ...params.slice(base.length).map((p) => sample(doc, p.schema)), '0x1'] },
    { label: 'params by name', params: Object.fromEntries(base.map((v, i) => [params[i].name as string, v])) },
    { label: 'params null', params: null },
    { label: 'params a string', params: 'latest' },
    { label: 'params a number', params: 1 },
  );
  return calls;
}
