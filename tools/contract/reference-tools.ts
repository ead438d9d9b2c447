// What the reference OpenRPC tools cannot load. `@open-rpc/schema-utils-js`'s parseOpenRPCDocument (which the OpenRPC
// playground, inspector and generator load documents with) resolves every `$ref` by fetching its target and then the
// targets' own refs, with no memory of where it has been: on a `$ref` cycle it never returns and fills the heap, on a
// non-local ref it fetches a file or a URL. `@open-rpc/generator` reads the `items` of every array schema and names
// its TypeScript types after schema titles and method names. Pure; the contract lint reports these, the contract diff
// counts a change that introduces one as breaking. test/contract/reference-tools.spec.ts runs the tools themselves.

import { deepEqual, isObject, type JsonObject } from '../../shared/contract/json.js';
import { pascalCase } from './names.js';
import { RECURSIVE_REF, RefError, componentName, resolvePointer } from '../../shared/contract/refs.js';
import { walkDocumentSchemas } from './schema-walk.js';

export interface ToolProblem {
  /** `ref-cycle`, `ref-unresolvable`, `array-items`, `type-name` or `recursive-ref`. */
  rule: string;
  /** The method it is in; absent for the rest of the document. */
  method?: string;
  /** JSON path into the method (`params.block.schema`) or the document (`components.schemas.CallFrame.properties.calls`). */
  path: string;
  message: string;
}

/** Keys whose values are JSON data, not document structure: a `$ref` member inside them is data. */
const DATA_KEYS = new Set(['value', 'const', 'enum', 'default', 'examples']);
const ANNOTATIONS = new Set(['title', 'description', '$comment']);

/** `#/components/schemas/A~1B` → `components.schemas["A/B"]`, the path style of the other lint rules. */
function pointerPath(pointer: string): string {
  const tokens = pointer.slice(1).split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  return tokens.map((t, i) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(t) ? `${i === 0 ? '' : '.'}${t}` : /^\d+$/.test(t) ? `[${t}]` : `[${JSON.stringify(t)}]`)).join('');
}

const escape = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** A problem at `pointer`: inside a method, named by the method and a path within it (params by name). */
function problemAt(doc: JsonObject, pointer: string, rule: string, message: string): ToolProblem {
  const match = /^#\/methods\/(\d+)(\/params\/(\d+))?(.*)$/.exec(pointer);
  const method = match && Array.isArray(doc.methods) ? doc.methods[Number(match[1])] : undefined;
  if (!match || !isObject(method) || typeof method.name !== 'string') return { rule, path: pointerPath(pointer) || '(document)', message };
  const param = match[3] === undefined || !Array.isArray(method.params) ? undefined : method.params[Number(match[3])];
  const head = param === undefined ? '' : `params.${isObject(param) && typeof param.name === 'string' ? param.name : match[3]}`;
  const rest = pointerPath(`#${match[4]}`);
  return { rule, method: method.name, path: `${head}${head && rest && !rest.startsWith('[') ? '.' : ''}${rest}` || '(method)', message };
}

/** Every `$ref` member in `value` outside data, with the pointer of the object holding it. */
function refsIn(value: unknown, pointer: string, out: { ref: unknown; at: string }[] = []): { ref: unknown; at: string }[] {
  if (Array.isArray(value)) value.forEach((v, i) => refsIn(v, `${pointer}/${i}`, out));
  else if (isObject(value)) {
    if ('$ref' in value) out.push({ ref: value.$ref, at: pointer });
    for (const [k, v] of Object.entries(value)) if (k !== '$ref' && !DATA_KEYS.has(k)) refsIn(v, `${pointer}/${escape(k)}`, out);
  }
  return out;
}

export function referenceToolProblems(doc: JsonObject): ToolProblem[] {
  return [...refProblems(doc), ...arrayProblems(doc), ...titleProblems(doc), ...recursiveRefProblems(doc)];
}

/** `$ref`s the parser cannot follow: not a string, not local, naming nothing — and cycles. */
function refProblems(doc: JsonObject): ToolProblem[] {
  const problems: ToolProblem[] = [];
  const resolvable = (ref: unknown, at: string): ref is string => {
    const unresolvable = (message: string) => problems.push(problemAt(doc, at, 'ref-unresolvable', message));
    if (typeof ref !== 'string') unresolvable(`$ref ${JSON.stringify(ref)} is not a string`);
    else if (!ref.startsWith('#')) unresolvable(`$ref "${ref}" is not local: the reference tools would fetch it as a file or URL`);
    else {
      try {
        resolvePointer(doc, ref);
        return true;
      } catch (error) {
        if (!(error instanceof RefError)) throw error;
        unresolvable(`$ref "${ref}" names nothing in the document`);
      }
    }
    return false;
  };
  const targets = new Set<string>();
  for (const { ref, at } of refsIn(doc, '#')) if (resolvable(ref, at)) targets.add(ref);

  // The refs a target leads to once fetched: every resolvable ref inside it.
  const edges = new Map<string, string[]>();
  const next = (target: string): string[] => {
    let out = edges.get(target);
    if (out === undefined) {
      out = [...new Set(refsIn(resolvePointer(doc, target), target).map((r) => r.ref).filter((r): r is string => typeof r === 'string' && targets.has(r)))];
      edges.set(target, out);
    }
    return out;
  };
  const done = new Set<string>();
  const reported = new Set<string>();
  const visit = (target: string, stack: string[]): void => {
    const start = stack.indexOf(target);
    if (start >= 0) {
      const cycle = stack.slice(start);
      const first = [...cycle].sort()[0]!;
      const rotated = [...cycle.slice(cycle.indexOf(first)), ...cycle.slice(0, cycle.indexOf(first))];
      const key = rotated.join(' ');
      if (!reported.has(key)) {
        reported.add(key);
        const message = `$ref cycle ${[...rotated, first].join(' → ')}: the reference parser follows it until the heap is full (a recursive schema names itself by "${RECURSIVE_REF}")`;
        problems.push(problemAt(doc, first, 'ref-cycle', message));
      }
      return;
    }
    if (done.has(target)) return;
    stack.push(target);
    for (const n of next(target)) visit(n, stack);
    stack.pop();
    done.add(target);
  };
  for (const target of [...targets].sort()) visit(target, []);
  return problems;
}

/** Array schemas without `items`: @open-rpc/generator's titleizer reads the items of every array and throws. */
function arrayProblems(doc: JsonObject): ToolProblem[] {
  const problems: ToolProblem[] = [];
  walkDocumentSchemas(doc, (schema, pointer) => {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.includes('array') && schema.items === undefined) {
      problems.push(problemAt(doc, pointer, 'array-items', 'an array schema without "items": @open-rpc/generator fails on it; say what the items are (`{}` for anything)'));
    }
  });
  return problems;
}

/**
 * Titles @open-rpc/generator would declare twice: it names a schema's type after its title and a method's type after
 * the method (`txpool_status` → `TxpoolStatus`), so a title equal to a method's name, or two different schemas with
 * one title, make a client that does not compile.
 */
function titleProblems(doc: JsonObject): ToolProblem[] {
  const problems: ToolProblem[] = [];
  const methodTypes = new Map<string, string>();
  for (const m of Array.isArray(doc.methods) ? doc.methods : []) {
    if (isObject(m) && typeof m.name === 'string') methodTypes.set(pascalCase(m.name), m.name);
  }
  const titled = new Map<string, { schema: JsonObject; pointer: string }>();
  walkDocumentSchemas(doc, (schema, pointer) => {
    if (typeof schema.title !== 'string') return;
    const method = methodTypes.get(pascalCase(schema.title));
    if (method !== undefined) {
      problems.push(problemAt(doc, pointer, 'type-name', `title "${schema.title}" is also the type @open-rpc/generator names after method ${method}: its client would declare it twice`));
    }
    const first = titled.get(schema.title);
    if (first === undefined) titled.set(schema.title, { schema, pointer });
    else if (!deepEqual(first.schema, schema)) {
      problems.push(problemAt(doc, pointer, 'type-name', `title "${schema.title}" also names a different schema (at ${first.pointer}): @open-rpc/generator would give both one type`));
    }
  });
  return problems;
}

/**
 * `x-recursive-ref` only where a `$ref` would close a cycle, naming a component that leads back to the schema holding
 * it, and beside it only the bound the reference tools see: the named schema's `type`, and annotations.
 */
function recursiveRefProblems(doc: JsonObject): ToolProblem[] {
  const problems: ToolProblem[] = [];
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  const reach = reachability(schemas);
  walkDocumentSchemas(doc, (schema, pointer) => {
    if (!(RECURSIVE_REF in schema)) return;
    const ref = schema[RECURSIVE_REF];
    const name = typeof ref === 'string' ? componentName(ref) : undefined;
    const target = name === undefined ? undefined : schemas[name];
    if (name === undefined || !isObject(target)) {
      problems.push(problemAt(doc, pointer, 'recursive-ref', `"${RECURSIVE_REF}" ${JSON.stringify(ref)} names no components.schemas entry`));
      return;
    }
    const holder = componentName(pointer.split('/').slice(0, 4).join('/'));
    if (holder === undefined || (holder !== name && !(reach.get(name)?.has(holder) ?? false))) {
      problems.push(problemAt(doc, pointer, 'recursive-ref', `"${RECURSIVE_REF}" to ${name} closes no cycle: use "$ref", which every tool follows`));
    }
    const extra = Object.keys(schema).filter((k) => k !== RECURSIVE_REF && k !== 'type' && !ANNOTATIONS.has(k) && !k.startsWith('x-'));
    if (extra.length > 0 || !deepEqual(schema.type, target.type)) {
      problems.push(problemAt(doc, pointer, 'recursive-ref', `beside "${RECURSIVE_REF}" only ${name}'s type (${JSON.stringify(target.type)}) and annotations: the bound the reference tools see`));
    }
  });
  return problems;
}

/** For each component, the components it leads to through `$ref`s. */
function reachability(schemas: JsonObject): Map<string, Set<string>> {
  const direct = new Map<string, string[]>();
  for (const [key, schema] of Object.entries(schemas)) {
    direct.set(key, refsIn(schema, '#').flatMap(({ ref }) => (typeof ref === 'string' ? (componentName(ref.split('/').slice(0, 4).join('/')) ?? []) : [])));
  }
  const reach = new Map<string, Set<string>>();
  for (const key of direct.keys()) {
    const seen = new Set<string>();
    const todo = [...(direct.get(key) ?? [])];
    while (todo.length > 0) {
      const k = todo.pop()!;
      if (seen.has(k)) continue;
      seen.add(k);
      todo.push(...(direct.get(k) ?? []));
    }
    reach.set(key, seen);
  }
  return reach;
}
