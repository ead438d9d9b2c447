// The contract lint: what every method of openrpc.json must have — a summary and a description, examples whose params
// and result validate against the method's own schemas, the errors it can answer, consistent names, and an "x-since"
// that agrees with the released contracts — and nothing the reference OpenRPC tools cannot load (reference-tools.ts).
// Pure apart from ajv; `evm-node contract lint` and test/contract/ run it.
// That the declared errors cover what the node really answers is checked by the test suite (test/contract/
// declared-errors.spec.ts), which sees every error the node sends.

import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import { isObject, type JsonObject } from '../../shared/contract/json.js';
import { deref, followRecursiveRefs, refOf, resolvePointer } from '../../shared/contract/refs.js';
import { checkVersion } from './gate.js';
import type { Release } from './released.js';
import { referenceToolProblems } from './reference-tools.js';
import { parseVersion } from './semver.js';

// ajv is CommonJS; under NodeNext the default import is `module.exports`, whose `.default` is the class.
const Ajv = AjvModule.default;

export interface LintProblem {
  /** The rule broken, e.g. `summary`, `example-param` (stable, for tools and specs). */
  rule: string;
  method?: string;
  /** JSON path into the method or the document. */
  path: string;
  message: string;
}

/** `eth_getBalance`, `txpool_contentFrom`; `rpc.discover` is OpenRPC's own discovery method. */
const METHOD_NAME = /^[a-z][a-z0-9]*_[a-z][a-zA-Z0-9]*$/;
const DISCOVERY_METHODS = new Set(['rpc.discover']);
/** Names wallets and client libraries send as they are, whatever our convention says. */
const WIRE_NAMES = new Set(['eth_signTypedData_v4']);
const CAMEL_CASE = /^[a-z][a-zA-Z0-9]*$/;
const PASCAL_CASE = /^[A-Z][a-zA-Z0-9]*$/;
/** Every method can be sent params that break its schemas (or too many), so every method declares -32602. */
const INVALID_PARAMS = -32602;
const DOC_ID = 'https://openrpc.invalid/lint/openrpc.json';

const show = (v: unknown): string => JSON.stringify(v);
const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';

/** A value reached through reference objects, with the JSON pointer of where it really lives. */
interface Located {
  value: JsonObject;
  pointer: string;
}

export function lintContract(doc: JsonObject, releases: readonly Release[] = []): LintProblem[] {
  return new Linter(doc, releases).run();
}

class Linter {
  private readonly problems: LintProblem[] = [];
  // validateSchema off: a broken schema is reported where an example needs it, instead of failing the whole lint.
  private readonly ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false, validateSchema: false, logger: false });
  private readonly validators = new Map<string, ValidateFunction>();
  private upcomingVersion: string | undefined;

  constructor(
    private readonly doc: JsonObject,
    private readonly releases: readonly Release[],
  ) {
    this.ajv.addSchema({ ...(followRecursiveRefs(doc) as JsonObject), $id: DOC_ID });
  }

  /** The version the next release will have: what the version gate asks for, else info.version. */
  private get upcoming(): string {
    this.upcomingVersion ??= checkVersion(this.doc, this.releases).expected ?? (isObject(this.doc.info) ? String(this.doc.info.version) : '');
    return this.upcomingVersion;
  }

  run(): LintProblem[] {
    const version = isObject(this.doc.info) ? this.doc.info.version : undefined;
    if (typeof version !== 'string' || parseVersion(version) === undefined) {
      this.add('version', undefined, 'info.version', `info.version ${show(version)} is not MAJOR.MINOR.PATCH`);
    }
    const seen = new Set<string>();
    const methods = Array.isArray(this.doc.methods) ? this.doc.methods : [];
    methods.forEach((raw, i) => {
      const m = this.locate(raw, `#/methods/${i}`);
      const name = typeof m.value.name === 'string' ? m.value.name : `methods[${i}]`;
      if (seen.has(name)) this.add('method-name', name, 'name', 'method name used twice');
      seen.add(name);
      this.method(name, m);
    });
    this.components();
    for (const p of referenceToolProblems(this.doc)) this.add(p.rule, p.method, p.path, p.message);
    return this.problems;
  }

  private add(rule: string, method: string | undefined, path: string, message: string): void {
    this.problems.push(method === undefined ? { rule, path, message } : { rule, method, path, message });
  }

  private locate(value: unknown, pointer: string): Located {
    let cur = value;
    let at = pointer;
    for (let depth = 0; refOf(cur) !== undefined && depth < 32; depth++) {
      at = refOf(cur)!;
      cur = resolvePointer(this.doc, at);
    }
    return { value: isObject(cur) ? cur : {}, pointer: at };
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `${DOC_ID}${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  private method(name: string, m: Located): void {
    const method = m.value;
    if (!METHOD_NAME.test(name) && !DISCOVERY_METHODS.has(name) && !WIRE_NAMES.has(name)) {
      this.add('method-name', name, 'name', 'method names are namespace_camelCase (eth_getBalance)');
    }
    if (!nonEmpty(method.summary)) this.add('summary', name, 'summary', 'has no summary');
    if (!nonEmpty(method.description)) this.add('description', name, 'description', 'has no description');

    const params = (Array.isArray(method.params) ? method.params : []).map((p, i) => this.locate(p, `${m.pointer}/params/${i}`));
    const paramNames = new Set<string>();
    for (const { value: p } of params) {
      const at = `params.${String(p.name)}`;
      if (typeof p.name !== 'string' || !CAMEL_CASE.test(p.name)) this.add('param-name', name, at, `param name ${show(p.name)} is not camelCase`);
      else if (paramNames.has(p.name)) this.add('param-name', name, at, `param name ${show(p.name)} used twice`);
      paramNames.add(String(p.name));
      if (typeof p.required !== 'boolean') this.add('param-required', name, at, 'says neither "required": true nor false');
      if (!isObject(p.schema) && typeof p.schema !== 'boolean') this.add('param-schema', name, at, 'has no schema');
    }
    const result = method.result === undefined ? undefined : this.locate(method.result, `${m.pointer}/result`);
    if (result === undefined) {
      this.add('result', name, 'result', 'has no result');
    } else {
      if (typeof result.value.name !== 'string' || !CAMEL_CASE.test(result.value.name)) this.add('result', name, 'result.name', `result name ${show(result.value.name)} is not camelCase`);
      if (!isObject(result.value.schema) && typeof result.value.schema !== 'boolean') this.add('result', name, 'result.schema', 'result has no schema');
    }

    this.errors(name, method);
    this.examples(name, method, m.pointer, params, result);
    this.since(name, method);
  }

  private errors(name: string, method: JsonObject): void {
    const errors = (Array.isArray(method.errors) ? method.errors : []).map((e) => deref<JsonObject>(this.doc, e));
    errors.forEach((e, i) => {
      if (!isObject(e) || !Number.isInteger(e.code) || !nonEmpty(e.message)) {
        this.add('errors', name, `errors[${i}]`, 'an error needs an integer code and a message');
      }
    });
    if (!errors.some((e) => isObject(e) && e.code === INVALID_PARAMS)) {
      this.add('errors', name, 'errors', `does not declare ${INVALID_PARAMS} (invalid params), which any method answers to bad or too many params`);
    }
  }

  private examples(name: string, method: JsonObject, pointer: string, params: Located[], result: Located | undefined): void {
    const examples = (Array.isArray(method.examples) ? method.examples : []).map((e, i) => this.locate(e, `${pointer}/examples/${i}`).value);
    if (examples.length === 0) this.add('examples', name, 'examples', 'has no example');
    const names = new Set<string>();
    examples.forEach((example, i) => {
      const label = typeof example.name === 'string' ? example.name : `#${i}`;
      const at = `examples[${show(label)}]`;
      if (typeof example.name !== 'string' || example.name.trim() === '') this.add('examples', name, at, 'an example needs a name');
      else if (names.has(example.name)) this.add('examples', name, at, 'example name used twice');
      names.add(label);
      const given = new Set<string>();
      for (const raw of Array.isArray(example.params) ? example.params : []) {
        const ep = deref<JsonObject>(this.doc, raw);
        const index = params.findIndex((p) => p.value.name === ep.name);
        if (index < 0) {
          this.add('example-param', name, at, `names param ${show(ep.name)}, which the method does not have`);
          continue;
        }
        given.add(String(ep.name));
        if (!('value' in ep)) {
          this.add('example-param', name, `${at}.params.${String(ep.name)}`, 'has no value');
          continue;
        }
        const problem = this.invalid(`${params[index]!.pointer}/schema`, ep.value);
        if (problem !== undefined) this.add('example-param', name, `${at}.params.${String(ep.name)}`, `does not validate against the param's schema: ${problem}`);
      }
      for (const p of params) {
        if (p.value.required === true && !given.has(String(p.value.name))) this.add('example-param', name, at, `lacks required param ${show(p.value.name)}`);
      }
      if (example.result !== undefined && result !== undefined) {
        const er = deref<JsonObject>(this.doc, example.result);
        if (!('value' in er)) this.add('example-result', name, `${at}.result`, 'has no value');
        else {
          const problem = this.invalid(`${result.pointer}/schema`, er.value);
          if (problem !== undefined) this.add('example-result', name, `${at}.result`, `does not validate against the result schema: ${problem}`);
        }
      }
    });
  }

  /** Why `value` fails the schema at `pointer`, or undefined when it is valid. */
  private invalid(pointer: string, value: unknown): string | undefined {
    let validate: ValidateFunction;
    try {
      validate = this.validator(pointer);
    } catch (error) {
      return `the schema does not compile (${(error as Error).message})`;
    }
    if (validate(value)) return undefined;
    const e = (validate.errors ?? [])[0] as ErrorObject | undefined;
    return e === undefined ? 'invalid' : `${e.instancePath || '(value)'} ${e.message ?? e.keyword}`;
  }

  /** "x-since": the version of the first release that has the method; the upcoming version for a new one. */
  private since(name: string, method: JsonObject): void {
    const since = method['x-since'];
    const first = this.releases.find((r) => (Array.isArray(r.doc.methods) ? r.doc.methods : []).some((m) => deref<JsonObject>(r.doc, m).name === name));
    const expected = first?.version ?? this.upcoming;
    if (typeof since !== 'string' || parseVersion(since) === undefined) {
      this.add('x-since', name, 'x-since', `needs "x-since": "${expected}" (the version it ${first ? 'first shipped' : 'will first ship'} in)`);
    } else if (since !== expected) {
      this.add('x-since', name, 'x-since', first ? `"x-since" is ${since}, but the method first shipped in ${first.version}` : `"x-since" is ${since}, but the method is new in the upcoming ${expected}`);
    }
  }

  private components(): void {
    const components = isObject(this.doc.components) ? this.doc.components : {};
    const schemas = isObject(components.schemas) ? components.schemas : {};
    for (const [key, schema] of Object.entries(schemas)) {
      const at = `components.schemas.${key}`;
      if (!PASCAL_CASE.test(key)) this.add('component-name', undefined, at, `schema name ${show(key)} is not PascalCase`);
      if (isObject(schema) && schema.title !== undefined && schema.title !== key) {
        this.add('component-name', undefined, at, `title ${show(schema.title)} differs from the schema's name`);
      }
    }
  }
}
