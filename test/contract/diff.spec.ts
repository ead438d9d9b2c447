// The contract diff, one rule at a time: each case is a pair of small OpenRPC documents that differ in one way, diffed
// in both directions (a change and its undoing are each classified from the client's side).
import { expect } from 'chai';
import type { Change } from '../../tools/contract/diff/change.js';
import { diffContracts } from '../../tools/contract/diff/diff.js';
import type { JsonObject } from '../../shared/contract/json.js';

type Json = JsonObject;

/** A small contract: `eth_get` takes a block selector, `eth_put` an object; components as the real contract uses them. */
function contract(): Json {
  return {
    openrpc: '1.2.6',
    info: { title: 'test', version: '1.0.0' },
    methods: [
      {
        name: 'eth_get',
        summary: 'Reads.',
        'x-since': '1.0.0',
        params: [
          { name: 'block', required: true, schema: { $ref: '#/components/schemas/BlockNumberOrTag' } },
          { name: 'count', required: false, schema: { type: 'integer', minimum: 0, maximum: 100 } },
        ],
        result: { name: 'value', schema: { $ref: '#/components/schemas/Value' } },
        errors: [
          { code: -32602, message: 'Invalid params' },
          { code: -32000, message: 'header not found' },
        ],
        examples: [{ name: 'latest', params: [{ name: 'block', value: 'latest' }], result: { name: 'value', value: { kind: 'a', amount: '0x1' } } }],
      },
      {
        name: 'eth_put',
        summary: 'Writes.',
        'x-since': '1.0.0',
        params: [{ name: 'item', required: true, schema: { $ref: '#/components/schemas/Item' } }],
        result: { name: 'ok', schema: { type: 'boolean' } },
        errors: [{ code: -32602, message: 'Invalid params' }],
        examples: [],
      },
    ],
    components: {
      schemas: {
        QuantityInput: { type: 'string', pattern: '^0x[0-9a-fA-F]{1,64}$' },
        BlockTag: { type: 'string', enum: ['latest', 'pending'] },
        BlockNumberOrTag: { oneOf: [{ $ref: '#/components/schemas/QuantityInput' }, { $ref: '#/components/schemas/BlockTag' }] },
        Item: {
          type: 'object',
          required: ['to'],
          properties: {
            to: { type: 'string', pattern: '^0x[0-9a-f]{40}$' },
            gas: { $ref: '#/components/schemas/QuantityInput' },
            tags: { type: 'array', items: { type: 'string' } },
          },
        },
        Value: {
          type: 'object',
          required: ['kind', 'amount'],
          properties: { kind: { type: 'string', enum: ['a', 'b'] }, amount: { type: 'string' } },
        },
      },
    },
  };
}

const methodOf = (doc: Json, name: string): Json => (doc.methods as Json[]).find((m) => m.name === name)!;
const schemas = (doc: Json): Json => (doc.components as Json).schemas as Json;
const params = (doc: Json, name: string): Json[] => methodOf(doc, name).params as Json[];

/** `contract()` after `edit`. */
function edited(edit: (doc: Json) => void): Json {
  const doc = contract();
  edit(doc);
  return doc;
}

/** The changes other than documentation, as `severity rule method path`. */
function summary(changes: Change[]): string[] {
  return changes.filter((c) => c.severity !== 'informational').map((c) => `${c.severity} ${c.rule} ${c.method ?? '-'} ${c.path}`);
}

/** The one change that is not documentation (or the one change, when all are documentation). */
function only(changes: Change[]): Change {
  const real = changes.filter((c) => c.severity !== 'informational');
  const picked = real.length > 0 ? real : changes;
  expect(picked, JSON.stringify(changes, null, 2)).to.have.length(1);
  return picked[0]!;
}

interface Case {
  title: string;
  edit: (doc: Json) => void;
  /** `severity rule path` of the single change, base → edited and edited → base. */
  forward: string;
  backward: string;
  /** Text each message must contain, forward and backward. */
  says?: [string, string];
}

function check(c: Case): void {
  describe(c.title, function () {
    const before = contract();
    const after = edited(c.edit);
    it(`edited: ${c.forward}`, function () {
      const change = only(diffContracts(before, after));
      expect(`${change.severity} ${change.rule} ${change.path}`).to.equal(c.forward);
      if (c.says) expect(change.message).to.include(c.says[0]);
    });
    it(`undone: ${c.backward}`, function () {
      const change = only(diffContracts(after, before));
      expect(`${change.severity} ${change.rule} ${change.path}`).to.equal(c.backward);
      if (c.says) expect(change.message).to.include(c.says[1]);
    });
  });
}

describe('contract diff', function () {
  it('finds no change between a document and itself', function () {
    expect(diffContracts(contract(), contract())).to.deep.equal([]);
  });

  describe('methods', function () {
    check({
      title: 'a method removed / added',
      edit: (d) => (d.methods as Json[]).splice(1, 1),
      forward: 'breaking method-removed name',
      backward: 'non-breaking method-added name',
      says: ['method not found', 'Writes.'],
    });

    it('a method renamed (same params and result) is one breaking rename, both ways', function () {
      const after = edited((d) => (methodOf(d, 'eth_put').name = 'eth_store'));
      expect(summary(diffContracts(contract(), after))).to.deep.equal(['breaking method-renamed eth_put name']);
      expect(only(diffContracts(contract(), after)).message).to.include('renamed to eth_store');
      expect(summary(diffContracts(after, contract()))).to.deep.equal(['breaking method-renamed eth_store name']);
    });

    it('a removed and an added method with other params are not a rename', function () {
      const after = edited((d) => {
        const m = methodOf(d, 'eth_put');
        m.name = 'eth_store';
        m.params = [];
      });
      expect(summary(diffContracts(contract(), after)).sort()).to.deep.equal(['breaking method-removed eth_put name', 'non-breaking method-added eth_store name']);
    });

    check({
      title: 'a method deprecated / undeprecated',
      edit: (d) => (methodOf(d, 'eth_get').deprecated = true),
      forward: 'non-breaking method-deprecated deprecated',
      backward: 'informational method-undeprecated deprecated',
    });
  });

  describe('params: added, removed, reordered, renamed', function () {
    check({
      title: 'a required param added / removed',
      edit: (d) => params(d, 'eth_put').push({ name: 'flag', required: true, schema: { type: 'boolean' } }),
      forward: 'breaking param-added-required params.flag',
      backward: 'breaking param-removed params.flag',
    });
    check({
      title: 'an optional param added at the end / removed',
      edit: (d) => params(d, 'eth_put').push({ name: 'flag', required: false, schema: { type: 'boolean' } }),
      forward: 'non-breaking param-added params.flag',
      backward: 'breaking param-removed params.flag',
    });
    check({
      title: 'a param made required / optional',
      edit: (d) => (params(d, 'eth_get')[1]!.required = true),
      forward: 'breaking param-made-required params.count',
      backward: 'non-breaking param-made-optional params.count',
    });
    check({
      title: 'a param renamed at the same position with the same schema',
      edit: (d) => (params(d, 'eth_put')[0]!.name = 'entry'),
      forward: 'breaking param-renamed params.item',
      backward: 'breaking param-renamed params.entry',
      says: ['by-name callers only', 'by-name callers only'],
    });

    it('params reordered: each moved param is breaking for by-position callers, both ways', function () {
      const after = edited((d) => params(d, 'eth_get').reverse());
      const expected = ['breaking param-moved eth_get params.block', 'breaking param-moved eth_get params.count'];
      expect(summary(diffContracts(contract(), after))).to.deep.equal(expected);
      expect(summary(diffContracts(after, contract())).sort()).to.deep.equal(expected);
      expect(summary(diffContracts(contract(), edited((d) => params(d, 'eth_get').splice(0, 1))))).to.deep.equal([
        'breaking param-removed eth_get params.block',
        'breaking param-moved eth_get params.count',
      ]);
    });
  });

  describe('param schemas, judged on resolved schemas', function () {
    check({
      title: 'an enum value removed from a referenced component (BlockTag inside BlockNumberOrTag)',
      edit: (d) => ((schemas(d).BlockTag as Json).enum = ['latest']),
      forward: 'breaking param-narrowed params.block',
      backward: 'non-breaking param-widened params.block',
      says: ['BlockTag: enum value "pending" removed — inputs valid before are now rejected', 'BlockTag: enum value "pending" added'],
    });
    check({
      title: 'a oneOf alternative removed',
      edit: (d) => (params(d, 'eth_get')[0]!.schema = { $ref: '#/components/schemas/QuantityInput' }),
      forward: 'breaking param-narrowed params.block',
      backward: 'non-breaking param-widened params.block',
      says: ['BlockTag is no longer allowed', 'BlockTag is now allowed'],
    });
    it('a pattern bound tightened / relaxed in a component, reported at every method that uses it', function () {
      const after = edited((d) => ((schemas(d).QuantityInput as Json).pattern = '^0x[0-9a-fA-F]{1,16}$'));
      expect(summary(diffContracts(contract(), after))).to.deep.equal(['breaking param-narrowed eth_get params.block', 'breaking param-narrowed eth_put params.item.gas']);
      expect(summary(diffContracts(after, contract()))).to.deep.equal(['non-breaking param-widened eth_get params.block', 'non-breaking param-widened eth_put params.item.gas']);
      expect(diffContracts(contract(), after)[0]!.message).to.equal(
        'param narrowed: QuantityInput: pattern "^0x[0-9a-fA-F]{1,64}$" → "^0x[0-9a-fA-F]{1,16}$" (matches fewer strings) — inputs valid before are now rejected',
      );
    });
    it('a pattern replaced by an unrelated one cannot be proven compatible either way', function () {
      const after = edited((d) => ((schemas(d).Item as Json & { properties: Json }).properties.to = { type: 'string', pattern: '^[a-z]+\\.eth$' }));
      for (const change of [only(diffContracts(contract(), after)), only(diffContracts(after, contract()))]) {
        expect(`${change.severity} ${change.rule} ${change.path}`).to.equal('breaking param-unprovable params.item.to');
        expect(change.message).to.include('cannot prove compatible');
      }
    });
    check({
      title: 'minimum raised / lowered',
      edit: (d) => ((params(d, 'eth_get')[1]!.schema as Json).minimum = 1),
      forward: 'breaking param-narrowed params.count',
      backward: 'non-breaking param-widened params.count',
      says: ['minimum raised from 0 to 1', 'minimum lowered from 1 to 0'],
    });
    check({
      title: 'maximum lowered / raised',
      edit: (d) => ((params(d, 'eth_get')[1]!.schema as Json).maximum = 10),
      forward: 'breaking param-narrowed params.count',
      backward: 'non-breaking param-widened params.count',
    });
    check({
      title: 'integer only / any number',
      edit: (d) => ((params(d, 'eth_get')[1]!.schema as Json).type = 'number'),
      forward: 'non-breaking param-widened params.count',
      backward: 'breaking param-narrowed params.count',
    });
    check({
      title: 'null allowed / no longer allowed (nullable)',
      edit: (d) => ((params(d, 'eth_get')[1]!.schema as Json).type = ['integer', 'null']),
      forward: 'non-breaking param-widened params.count',
      backward: 'breaking param-narrowed params.count',
      says: ['null is now allowed', 'null is no longer allowed'],
    });
    check({
      title: 'additionalProperties closed / opened',
      edit: (d) => ((schemas(d).Item as Json).additionalProperties = false),
      forward: 'breaking param-narrowed params.item',
      backward: 'non-breaking param-widened params.item',
    });
    check({
      title: 'an object member made required / optional',
      edit: (d) => ((schemas(d).Item as Json).required = ['to', 'gas']),
      forward: 'breaking param-narrowed params.item.gas',
      backward: 'non-breaking param-widened params.item.gas',
    });
    check({
      title: 'array items constrained / relaxed',
      edit: (d) => ((schemas(d).Item as Json & { properties: Json }).properties.tags = { type: 'array', items: { type: 'string', maxLength: 32 } }),
      forward: 'breaking param-narrowed params.item.tags[*]',
      backward: 'non-breaking param-widened params.item.tags[*]',
    });
    check({
      title: 'minItems added / removed',
      edit: (d) => ((schemas(d).Item as Json & { properties: Json }).properties.tags = { type: 'array', items: { type: 'string' }, minItems: 1 }),
      forward: 'breaking param-narrowed params.item.tags',
      backward: 'non-breaking param-widened params.item.tags',
    });
    check({
      title: 'a default changed',
      edit: (d) => ((params(d, 'eth_get')[1]!.schema as Json).default = 10),
      forward: 'breaking param-default-changed params.count',
      backward: 'breaking param-default-changed params.count',
      says: ['callers that omit it', 'callers that omit it'],
    });
  });

  describe('result schemas', function () {
    check({
      title: 'a result made nullable / not',
      edit: (d) => ((methodOf(d, 'eth_put').result as Json).schema = { type: ['boolean', 'null'] }),
      forward: 'breaking result-widened result',
      backward: 'non-breaking result-narrowed result',
      says: ['breaking for exhaustive clients', 'null is no longer allowed'],
    });
    check({
      title: 'a result enum value added / removed',
      edit: (d) => (((schemas(d).Value as Json).properties as Json).kind = { type: 'string', enum: ['a', 'b', 'c'] }),
      forward: 'breaking result-widened result.kind',
      backward: 'non-breaking result-narrowed result.kind',
      says: ['enum value "c" added — breaking for exhaustive clients', 'enum value "c" removed'],
    });
    check({
      title: 'a result member made optional / required',
      edit: (d) => ((schemas(d).Value as Json).required = ['kind']),
      forward: 'breaking result-widened result.amount',
      backward: 'non-breaking result-narrowed result.amount',
    });
    check({
      title: 'a new type in the result / removed',
      edit: (d) => ((methodOf(d, 'eth_put').result as Json).schema = { oneOf: [{ type: 'boolean' }, { type: 'string' }] }),
      forward: 'breaking result-widened result',
      backward: 'non-breaking result-narrowed result',
    });
  });

  describe('errors', function () {
    check({
      title: 'an error code added / removed',
      edit: (d) => (methodOf(d, 'eth_put').errors as Json[]).push({ code: -32005, message: 'limit exceeded' }),
      forward: 'breaking error-added errors[-32005]',
      backward: 'non-breaking error-removed errors[-32005]',
      says: ['exhaustively', 'no longer declared'],
    });
    it('another message under a declared code is documentation, both ways', function () {
      const after = edited((d) => (methodOf(d, 'eth_get').errors as Json[]).push({ code: -32000, message: 'unknown block' }));
      expect(diffContracts(contract(), after).map((c) => `${c.severity} ${c.rule}`)).to.deep.equal(['informational error-message-added']);
      expect(diffContracts(after, contract()).map((c) => `${c.severity} ${c.rule}`)).to.deep.equal(['informational error-message-removed']);
    });
  });

  describe('documentation and examples', function () {
    it('an example changed, added or removed is informational', function () {
      const changed = edited((d) => (((methodOf(d, 'eth_get').examples as Json[])[0]!.result as Json).value = { kind: 'b', amount: '0x2' }));
      expect(diffContracts(contract(), changed).map((c) => `${c.severity} ${c.rule} ${c.path}`)).to.deep.equal(['informational example-changed examples["latest"]']);
      const added = edited((d) => (methodOf(d, 'eth_put').examples as Json[]).push({ name: 'one', params: [], result: { name: 'ok', value: true } }));
      expect(diffContracts(contract(), added).map((c) => c.rule)).to.deep.equal(['example-added']);
      expect(diffContracts(added, contract()).map((c) => c.rule)).to.deep.equal(['example-removed']);
    });

    it('a summary, a component and the info are documentation, the component change also reported where it matters', function () {
      const after = edited((d) => {
        methodOf(d, 'eth_get').summary = 'Reads a value.';
        (d.info as Json).description = 'now described';
        (schemas(d).Value as Json).description = 'What eth_get answers.';
      });
      expect(diffContracts(contract(), after).map((c) => `${c.severity} ${c.rule} ${c.method ?? '-'} ${c.path}`)).to.deep.equal([
        'informational doc-changed eth_get summary',
        'informational component-changed - components.schemas.Value',
        'informational doc-changed - info.description',
      ]);
    });
  });

  describe('what the reference OpenRPC tools cannot load', function () {
    const cyclic = () =>
      edited((d) => {
        const value = schemas(d).Value as Json;
        (value.properties as Json).next = { $ref: '#/components/schemas/Value' };
      });

    it('a $ref cycle brought in is breaking, beside what the schema change itself is', function () {
      expect(summary(diffContracts(contract(), cyclic()))).to.deep.equal(['non-breaking result-narrowed eth_get result.next', 'breaking reference-tools - components.schemas.Value']);
      const change = diffContracts(contract(), cyclic()).find((c) => c.rule === 'reference-tools')!;
      expect(change.message).to.match(/^\$ref cycle #\/components\/schemas\/Value → #\/components\/schemas\/Value: .* \[ref-cycle\] — clients that load the contract with the reference OpenRPC tools break$/);
    });

    it('a cycle taken out, or one both sides have, is no reference-tools change', function () {
      expect(diffContracts(cyclic(), contract()).filter((c) => c.rule === 'reference-tools')).to.deep.equal([]);
      expect(diffContracts(cyclic(), cyclic())).to.deep.equal([]);
    });

    it('so does an array schema without items, at the method that has it', function () {
      const after = edited((d) => (methodOf(d, 'eth_put').result = { name: 'ok', schema: { type: 'array' } }));
      expect(summary(diffContracts(contract(), after))).to.include('breaking reference-tools eth_put result.schema');
    });
  });

  it('reports the nested JSON path of a change deep in a referenced schema', function () {
    const after = edited((d) => ((((schemas(d).Item as Json).properties as Json).to as Json).pattern = '^0x[0-9a-f]{40,42}$'));
    const change = only(diffContracts(contract(), after));
    expect(change).to.deep.include({ severity: 'non-breaking', rule: 'param-widened', method: 'eth_put', path: 'params.item.to' });
  });
});
