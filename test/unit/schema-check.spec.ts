// The playground judges results in the browser with playground/schema-check.ts. Its verdicts must
// be the contract's: here it is checked against generated/ (ajv, as the server uses) on every example of
// openrpc.json and on broken variants of them.
import { expect } from 'chai';
import path from 'node:path';
import { paramValidators, resultError, type MethodName } from '../../generated/index.js';
import { readDocument } from '../../shared/contract/document.js';
import { projectRoot } from '../../shared/contract/root.js';
import { checkSchema } from '../../playground/schema-check.js';

type Json = { [key: string]: unknown };

const root = projectRoot();
const doc = readDocument(path.join(root, 'openrpc.json')) as Json;
const methods = doc.methods as Json[];

/** The example value and a few ways to break it (wrong types, dropped or extra members, bad strings). */
function variants(value: unknown): unknown[] {
  const out: unknown[] = [value, null, 7, 'zz', true, [], {}, [value], '0x', '0xZZ', 1.5];
  if (typeof value === 'string') out.push(value.toUpperCase(), `${value}0`, value.slice(0, -1), ` ${value}`);
  if (Array.isArray(value) && value.length > 0) {
    out.push(value.slice(1), [...value, value[0]], [7, ...value.slice(1)]);
    for (const v of variants(value[0]).slice(1, 6)) out.push([v, ...value.slice(1)]);
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const o = value as Json;
    out.push({ ...o, unexpected: 1 });
    for (const k of Object.keys(o)) {
      const { [k]: _dropped, ...rest } = o;
      out.push(rest, { ...o, [k]: 7 }, { ...o, [k]: null }, { ...o, [k]: 'zz' });
      if (typeof o[k] === 'string') out.push({ ...o, [k]: `${o[k] as string}0` });
    }
  }
  return out;
}

describe('playground schema-check (browser validator) agrees with generated/ (ajv)', function () {
  let compared = 0;

  after(function () {
    expect(compared, 'values compared').to.be.greaterThan(500);
  });

  for (const m of methods) {
    const name = m.name as MethodName;
    const result = (m.result as Json | undefined)?.schema;
    const params = ((m.params as Json[] | undefined) ?? []).map((p) => p.schema);
    it(name, function () {
      for (const example of (m.examples as Json[] | undefined) ?? []) {
        const r = example.result as Json | undefined;
        if (r && result !== undefined) {
          for (const value of variants(r.value)) {
            const verdict = checkSchema(doc, result, value);
            expect(verdict.valid, `unsupported schema in ${name}'s result: ${JSON.stringify(verdict)}`).to.not.equal('unknown');
            const ajv = resultError(name, value) === null;
            expect(verdict.valid, `${name} result ${JSON.stringify(value).slice(0, 200)}: ajv says ${ajv}`).to.equal(ajv);
            compared++;
          }
        }
        ((example.params as Json[] | undefined) ?? []).forEach((p, i) => {
          if (i >= params.length) return;
          for (const value of variants(p.value)) {
            const verdict = checkSchema(doc, params[i], value);
            const ajv = paramValidators[name][i]!(value);
            expect(verdict.valid, `${name} param ${i} ${JSON.stringify(value).slice(0, 200)}: ajv says ${ajv}`).to.equal(ajv);
            compared++;
          }
        });
      }
    });
  }

  it('reports the path and rule of a violation', function () {
    const block = methods.find((m) => m.name === 'eth_getBlockByNumber')!;
    const schema = (block.result as Json).schema;
    const example = ((block.examples as Json[])[0]!.result as Json).value as Json;
    const verdict = checkSchema(doc, schema, { ...example, number: 12 });
    expect(verdict).to.deep.equal({ valid: false, issue: { path: '.number', message: 'must be string' } });
  });

  it('refuses to judge with a keyword it does not know', function () {
    expect(checkSchema(doc, { type: 'string', unknownKeyword: 1 }, 'x')).to.deep.equal({
      valid: 'unknown',
      reason: 'cannot validate: unsupported keyword "unknownKeyword"',
    });
  });
});
