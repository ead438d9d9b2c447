// The contract diff: two OpenRPC documents in, every change between them out, each classified from the client's side.
// Pure: no I/O. Methods are matched by name (a removed and an added method with the same params and result are a
// rename), params by name and position, schemas with `$ref`s resolved (schema.ts).

import { deepEqual, isObject, type JsonObject } from '../../../shared/contract/json.js';
import { referenceToolProblems, type ToolProblem } from '../reference-tools.js';
import { deref } from '../../../shared/contract/refs.js';
import type { Change } from './change.js';
import { SchemaComparer, child, type Finding } from './schema.js';

interface Param {
  name: string;
  required: boolean;
  schema: unknown;
  description: unknown;
}

const show = (v: unknown): string => JSON.stringify(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Every change from `base` to `head`, methods by name, then document-level changes. */
export function diffContracts(base: JsonObject, head: JsonObject): Change[] {
  return new ContractDiff(base, head).run();
}

class ContractDiff {
  private readonly schemas: SchemaComparer;
  private readonly changes: Change[] = [];

  constructor(
    private readonly base: JsonObject,
    private readonly head: JsonObject,
  ) {
    this.schemas = new SchemaComparer(base, head);
  }

  run(): Change[] {
    const a = methodsOf(this.base);
    const b = methodsOf(this.head);
    const removed = [...a.keys()].filter((n) => !b.has(n));
    const added = [...b.keys()].filter((n) => !a.has(n));
    for (const name of removed) {
      const target = added.find((n) => this.sameSignature(a.get(name)!, b.get(n)!));
      if (target !== undefined) {
        added.splice(added.indexOf(target), 1);
        this.add('breaking', 'method-renamed', name, 'name', `renamed to ${target} (same params and result): callers of ${name} get "method not found"`);
      } else {
        this.add('breaking', 'method-removed', name, 'name', `method removed: callers get "method not found"`);
      }
    }
    for (const name of added) {
      const summary = str(b.get(name)!.summary);
      this.add('non-breaking', 'method-added', name, 'name', `method added${summary ? `: ${summary}` : ''}`);
    }
    for (const name of [...a.keys()].filter((n) => b.has(n)).sort()) this.method(name, a.get(name)!, b.get(name)!);
    this.changes.sort((x, y) => (x.method ?? '').localeCompare(y.method ?? ''));
    this.components();
    this.info();
    this.referenceTools();
    return this.changes;
  }

  private add(severity: Change['severity'], rule: string, method: string | undefined, path: string, message: string): void {
    this.changes.push(method === undefined ? { severity, rule, path, message } : { severity, rule, method, path, message });
  }

  private sameSignature(x: JsonObject, y: JsonObject): boolean {
    const px = this.params(this.base, x);
    const py = this.params(this.head, y);
    const quiet = (fs: Finding[]) => fs.every((f) => f.effect === 'annotation');
    return (
      px.length === py.length &&
      px.every((p, i) => p.name === py[i]!.name && p.required === py[i]!.required && quiet(this.schemas.compare(p.schema, py[i]!.schema, 'params'))) &&
      quiet(this.schemas.compare(this.resultSchema(this.base, x), this.resultSchema(this.head, y), 'result'))
    );
  }

  private params(doc: JsonObject, method: JsonObject): Param[] {
    return (Array.isArray(method.params) ? method.params : []).map((raw) => {
      const p = deref<JsonObject>(doc, raw);
      return { name: str(p.name), required: p.required === true, schema: p.schema, description: p.description };
    });
  }

  private resultSchema(doc: JsonObject, method: JsonObject): unknown {
    return method.result === undefined ? undefined : deref<JsonObject>(doc, method.result).schema;
  }

  // ---- one method present in both documents

  private method(name: string, x: JsonObject, y: JsonObject): void {
    for (const key of ['summary', 'description'] as const) {
      if (!deepEqual(x[key], y[key])) this.add('informational', 'doc-changed', name, key, `${key} changed`);
    }
    if (x.deprecated !== true && y.deprecated === true) {
      this.add('non-breaking', 'method-deprecated', name, 'deprecated', 'method deprecated: it still works; move off it before a major release removes it');
    } else if (x.deprecated === true && y.deprecated !== true) {
      this.add('informational', 'method-undeprecated', name, 'deprecated', 'no longer deprecated');
    }
    const tags = (doc: JsonObject, m: JsonObject) => (Array.isArray(m.tags) ? m.tags : []).map((t) => str(deref<JsonObject>(doc, t).name));
    if (!deepEqual(tags(this.base, x), tags(this.head, y))) {
      this.add('informational', 'tags-changed', name, 'tags', `tags ${show(tags(this.base, x))} → ${show(tags(this.head, y))}`);
    }
    if (!deepEqual(x['x-since'], y['x-since'])) {
      this.add('informational', 'since-changed', name, 'x-since', x['x-since'] === undefined ? `x-since ${show(y['x-since'])} added` : `x-since ${show(x['x-since'])} → ${show(y['x-since'])}`);
    }
    this.paramStructure(name, x, y);
    this.paramsOf(name, this.params(this.base, x), this.params(this.head, y));
    this.result(name, x, y);
    this.errors(name, x, y);
    this.examples(name, x, y);
  }

  private paramStructure(name: string, x: JsonObject, y: JsonObject): void {
    const accepted = (m: JsonObject) => (m.paramStructure === 'by-name' ? ['by-name'] : m.paramStructure === 'by-position' ? ['by-position'] : ['by-name', 'by-position']);
    const before = accepted(x);
    const after = accepted(y);
    if (deepEqual(before, after)) return;
    const lost = before.filter((s) => !after.includes(s));
    if (lost.length > 0) this.add('breaking', 'param-structure-narrowed', name, 'paramStructure', `${lost.join(' and ')} params no longer accepted`);
    else this.add('non-breaking', 'param-structure-widened', name, 'paramStructure', `${after.filter((s) => !before.includes(s)).join(' and ')} params now accepted`);
  }

  private paramsOf(name: string, px: Param[], py: Param[]): void {
    const namesX = px.map((p) => p.name);
    const namesY = py.map((p) => p.name);
    const renamed = new Set<string>();
    for (const [i, p] of px.entries()) {
      const q = py[i];
      if (namesY.includes(p.name) || q === undefined || namesX.includes(q.name)) continue;
      if (p.required === q.required && this.schemas.compare(p.schema, q.schema, 'params').every((f) => f.effect === 'annotation')) {
        renamed.add(p.name).add(q.name);
        this.add('breaking', 'param-renamed', name, child('params', p.name), `param "${p.name}" renamed to "${q.name}" (same position and schema): breaking for by-name callers only; by-position callers are unaffected`);
      }
    }
    for (const [i, p] of px.entries()) {
      if (renamed.has(p.name)) continue;
      const at = child('params', p.name);
      const j = namesY.indexOf(p.name);
      if (j < 0) {
        this.add('breaking', 'param-removed', name, at, `param "${p.name}" (position ${i}) removed: by-position callers that pass it are rejected or misread, by-name callers are rejected`);
        continue;
      }
      const q = py[j]!;
      if (i !== j) this.add('breaking', 'param-moved', name, at, `param "${p.name}" moved from position ${i} to ${j}: breaking for by-position callers`);
      if (!p.required && q.required) this.add('breaking', 'param-made-required', name, at, `param "${p.name}" is now required: calls that omit it are rejected`);
      if (p.required && !q.required) this.add('non-breaking', 'param-made-optional', name, at, `param "${p.name}" is now optional`);
      if (!deepEqual(p.description, q.description)) this.add('informational', 'doc-changed', name, at, 'description changed');
      for (const f of this.schemas.compare(p.schema, q.schema, at)) this.paramFinding(name, f);
    }
    for (const [j, q] of py.entries()) {
      if (namesX.includes(q.name) || renamed.has(q.name)) continue;
      const at = child('params', q.name);
      if (q.required) this.add('breaking', 'param-added-required', name, at, `required param "${q.name}" added at position ${j}: calls without it are rejected`);
      else this.add('non-breaking', 'param-added', name, at, `optional param "${q.name}" added at position ${j}`);
    }
  }

  private paramFinding(method: string, f: Finding): void {
    switch (f.effect) {
      case 'narrowed':
        return this.add('breaking', 'param-narrowed', method, f.path, `param narrowed: ${f.detail} — inputs valid before are now rejected`);
      case 'widened':
        return this.add('non-breaking', 'param-widened', method, f.path, `param widened: ${f.detail}`);
      case 'unprovable':
        return this.add('breaking', 'param-unprovable', method, f.path, `param changed: ${f.detail} — taken as breaking`);
      case 'default':
        return this.add('breaking', 'param-default-changed', method, f.path, `param ${f.detail} — callers that omit it now get another behaviour`);
      case 'annotation':
        return this.add('informational', 'doc-changed', method, f.path, f.detail);
    }
  }

  private result(name: string, x: JsonObject, y: JsonObject): void {
    if (x.result === undefined && y.result === undefined) return;
    if (x.result === undefined) return this.add('non-breaking', 'result-added', name, 'result', 'now answers with a result (was a notification)');
    if (y.result === undefined) return this.add('breaking', 'result-removed', name, 'result', 'no longer answers with a result (now a notification)');
    const rx = deref<JsonObject>(this.base, x.result);
    const ry = deref<JsonObject>(this.head, y.result);
    for (const key of ['name', 'description'] as const) {
      if (!deepEqual(rx[key], ry[key])) this.add('informational', 'doc-changed', name, 'result', `result ${key} changed`);
    }
    for (const f of this.schemas.compare(rx.schema, ry.schema, 'result')) this.resultFinding(name, f);
  }

  private resultFinding(method: string, f: Finding): void {
    switch (f.effect) {
      case 'widened':
        return this.add('breaking', 'result-widened', method, f.path, `result widened: ${f.detail} — breaking for exhaustive clients, which may now receive values they do not handle`);
      case 'narrowed':
        return this.add('non-breaking', 'result-narrowed', method, f.path, `result narrowed: ${f.detail}`);
      case 'unprovable':
        return this.add('breaking', 'result-unprovable', method, f.path, `result changed: ${f.detail} — taken as breaking`);
      case 'default':
      case 'annotation':
        return this.add('informational', 'doc-changed', method, f.path, f.detail);
    }
  }

  private errors(name: string, x: JsonObject, y: JsonObject): void {
    const ex = declaredErrors(this.base, x);
    const ey = declaredErrors(this.head, y);
    for (const [code, messages] of ey) {
      const at = `errors[${code}]`;
      const before = ex.get(code);
      if (before === undefined) {
        this.add('breaking', 'error-added', name, at, `error ${code} (${[...messages].map(show).join(', ')}) added — breaking for clients that handle the declared codes exhaustively (the SDK's DeclaredErrorCode)`);
        continue;
      }
      for (const m of messages) if (!before.has(m)) this.add('informational', 'error-message-added', name, at, `error ${code} ${show(m)} added (a code already declared)`);
      for (const m of before) if (!messages.has(m)) this.add('informational', 'error-message-removed', name, at, `error ${code} ${show(m)} removed (the code stays declared)`);
    }
    for (const code of ex.keys()) {
      if (!ey.has(code)) this.add('non-breaking', 'error-removed', name, `errors[${code}]`, `error ${code} no longer declared`);
    }
  }

  private examples(name: string, x: JsonObject, y: JsonObject): void {
    const ex = examplesOf(this.base, x);
    const ey = examplesOf(this.head, y);
    for (const [key, example] of ex) {
      const at = `examples[${show(key)}]`;
      const now = ey.get(key);
      if (now === undefined) this.add('informational', 'example-removed', name, at, `example ${show(key)} removed`);
      else if (!deepEqual(example, now)) this.add('informational', 'example-changed', name, at, `example ${show(key)} changed`);
    }
    for (const key of ey.keys()) {
      if (!ex.has(key)) this.add('informational', 'example-added', name, `examples[${show(key)}]`, `example ${show(key)} added`);
    }
  }

  // ---- document level

  private components(): void {
    const sections = (doc: JsonObject) => (isObject(doc.components) ? doc.components : {});
    const cx = sections(this.base);
    const cy = sections(this.head);
    for (const section of [...new Set([...Object.keys(cx), ...Object.keys(cy)])].sort()) {
      const x = isObject(cx[section]) ? cx[section] : {};
      const y = isObject(cy[section]) ? cy[section] : {};
      for (const key of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) {
        const at = `components.${section}.${key}`;
        if (!Object.hasOwn(y, key)) this.add('informational', 'component-removed', undefined, at, `${section} ${key} removed`);
        else if (!Object.hasOwn(x, key)) this.add('informational', 'component-added', undefined, at, `${section} ${key} added`);
        else if (!deepEqual(x[key], y[key])) this.add('informational', 'component-changed', undefined, at, `${section} ${key} changed (its effect on each method is listed there)`);
      }
    }
  }

  /** What the reference OpenRPC tools could load before and cannot now: every client that loads the contract with them breaks. */
  private referenceTools(): void {
    const key = (p: ToolProblem) => `${p.rule} ${p.method ?? ''} ${p.path}`;
    const before = new Set(referenceToolProblems(this.base).map(key));
    for (const p of referenceToolProblems(this.head)) {
      if (!before.has(key(p))) this.add('breaking', 'reference-tools', p.method, p.path, `${p.message} [${p.rule}] — clients that load the contract with the reference OpenRPC tools break`);
    }
  }

  private info(): void {
    const ix = isObject(this.base.info) ? this.base.info : {};
    const iy = isObject(this.head.info) ? this.head.info : {};
    for (const key of ['title', 'description'] as const) {
      if (!deepEqual(ix[key], iy[key])) this.add('informational', 'doc-changed', undefined, `info.${key}`, `info.${key} changed`);
    }
    if (!deepEqual(this.base.servers, this.head.servers)) this.add('informational', 'servers-changed', undefined, 'servers', 'servers changed');
  }
}

function methodsOf(doc: JsonObject): Map<string, JsonObject> {
  const out = new Map<string, JsonObject>();
  for (const raw of Array.isArray(doc.methods) ? doc.methods : []) {
    const m = deref<JsonObject>(doc, raw);
    if (isObject(m) && typeof m.name === 'string') out.set(m.name, m);
  }
  return out;
}

/** A method's declared error codes, each with its messages. */
export function declaredErrors(doc: JsonObject, method: JsonObject): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  for (const raw of Array.isArray(method.errors) ? method.errors : []) {
    const e = deref<JsonObject>(doc, raw);
    if (!isObject(e) || typeof e.code !== 'number') continue;
    const messages = out.get(e.code) ?? new Set<string>();
    messages.add(str(e.message));
    out.set(e.code, messages);
  }
  return out;
}

function examplesOf(doc: JsonObject, method: JsonObject): Map<string, unknown> {
  const out = new Map<string, unknown>();
  (Array.isArray(method.examples) ? method.examples : []).forEach((raw, i) => {
    const e = deref<JsonObject>(doc, raw);
    out.set(typeof e.name === 'string' ? e.name : `#${i}`, e);
  });
  return out;
}
