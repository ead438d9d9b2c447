// The contract lint (`evm-node contract lint`): openrpc.json passes every rule, and each rule catches what it is for.
import { expect } from 'chai';
import path from 'node:path';
import { readDocument } from '../../shared/contract/document.js';
import type { JsonObject } from '../../shared/contract/json.js';
import { lintContract, type LintProblem } from '../../tools/contract/lint.js';
import { readReleases } from '../../tools/contract/released.js';
import { projectRoot } from '../../shared/contract/root.js';

type Json = JsonObject;
const root = projectRoot();
const doc = readDocument(path.join(root, 'openrpc.json'));
const releases = readReleases(root);

const RULES = [
  'version',
  'method-name',
  'summary',
  'description',
  'param-name',
  'param-required',
  'param-schema',
  'result',
  'errors',
  'examples',
  'example-param',
  'example-result',
  'x-since',
  'component-name',
  'ref-cycle',
  'ref-unresolvable',
  'array-items',
  'type-name',
  'recursive-ref',
];

const show = (problems: LintProblem[]) => problems.map((p) => `${p.method ?? ''} ${p.path}: ${p.message}`).join('\n');

/** openrpc.json edited by `edit`, linted; the problems as `rule method path`. */
function lintEdited(edit: (d: Json) => void): string[] {
  const copy = structuredClone(doc);
  edit(copy);
  return lintContract(copy, releases).map((p) => `${p.rule} ${p.method ?? '-'} ${p.path}`);
}

const method = (d: Json, name: string): Json => (d.methods as Json[]).find((m) => m.name === name)!;
const schemas = (d: Json): Json => (d.components as Json).schemas as Json;
const callFrameCalls = (d: Json): Json => ((schemas(d).CallFrame as Json).properties as Json).calls as Json;
/** The members of a new component no method uses (a schema that cannot compile fails every example using it too). */
function spare(d: Json): Json {
  schemas(d).Spare ??= { title: 'Spare', type: 'object', properties: {} };
  return (schemas(d).Spare as Json).properties as Json;
}
const firstExample = (d: Json, name: string): Json => (method(d, name).examples as Json[])[0]!;

describe('contract lint', function () {
  describe('openrpc.json', function () {
    const problems = lintContract(doc, releases);
    for (const rule of RULES) {
      it(`passes "${rule}"`, function () {
        const broken = problems.filter((p) => p.rule === rule);
        if (broken.length > 0) throw new Error(show(broken));
      });
    }
    it('breaks no other rule', function () {
      expect(show(problems.filter((p) => !RULES.includes(p.rule)))).to.equal('');
    });
  });

  describe('catches', function () {
    const cases: [string, (d: Json) => void, string[]][] = [
      ['a method without summary', (d) => delete method(d, 'eth_chainId').summary, ['summary eth_chainId summary']],
      ['a method with a blank description', (d) => (method(d, 'eth_chainId').description = ' '), ['description eth_chainId description']],
      ['a method without examples', (d) => (method(d, 'eth_chainId').examples = []), ['examples eth_chainId examples']],
      [
        'an example param that breaks its schema',
        (d) => ((firstExample(d, 'eth_getBalance').params as Json[])[0]!.value = '0x1234'),
        ['example-param eth_getBalance examples["dev account 0 (10,000 ETH)"].params.address'],
      ],
      [
        'an example result that breaks its schema',
        (d) => ((firstExample(d, 'eth_chainId').result as Json).value = 31337),
        ['example-result eth_chainId examples["dev chain id"].result'],
      ],
      [
        'an example naming a param the method lacks',
        (d) => (firstExample(d, 'eth_getBalance').params as Json[]).push({ name: 'blockTag', value: 'latest' }),
        ['example-param eth_getBalance examples["dev account 0 (10,000 ETH)"]'],
      ],
      [
        'an example without a required param',
        (d) => (firstExample(d, 'eth_getBalance').params as Json[]).splice(0, 1),
        ['example-param eth_getBalance examples["dev account 0 (10,000 ETH)"]'],
      ],
      [
        'a method that does not declare -32602',
        (d) => (method(d, 'eth_chainId').errors = []),
        ['errors eth_chainId errors'],
      ],
      ['an error without a message', (d) => (method(d, 'eth_chainId').errors as Json[]).push({ code: -32000 }), ['errors eth_chainId errors[2]']],
      [
        'a method name that is not namespace_camelCase (a new method to the released contract, so also a new x-since)',
        (d) => (method(d, 'eth_chainId').name = 'eth_chain_id'),
        ['method-name eth_chain_id name', 'x-since eth_chain_id x-since'],
      ],
      [
        'a param name that is not camelCase',
        (d) => {
          ((method(d, 'eth_getCode').params as Json[])[0]!.name = 'Address');
          for (const e of method(d, 'eth_getCode').examples as Json[]) (e.params as Json[])[0]!.name = 'Address';
        },
        ['param-name eth_getCode params.Address'],
      ],
      ['a param without an explicit required flag', (d) => delete (method(d, 'eth_getCode').params as Json[])[1]!.required, ['param-required eth_getCode params.block']],
      ['a result name that is not camelCase', (d) => ((method(d, 'eth_chainId').result as Json).name = 'chain_id'), ['result eth_chainId result.name']],
      [
        'a component name that is not PascalCase, or whose title differs',
        (d) => {
          const schemas = (d.components as Json).schemas as Json;
          schemas.block_tag = schemas.BlockTag;
          ((schemas.Address as Json).title as unknown) = 'address';
        },
        ['component-name - components.schemas.Address', 'component-name - components.schemas.block_tag', 'component-name - components.schemas.block_tag'],
      ],
      ['a method without x-since', (d) => delete method(d, 'eth_chainId')['x-since'], ['x-since eth_chainId x-since']],
      ['an x-since that is not the first release with the method', (d) => (method(d, 'eth_chainId')['x-since'] = '0.2.0'), ['x-since eth_chainId x-since']],
      [
        'a new method whose x-since is not the upcoming version',
        (d) => {
          const copy = structuredClone(method(d, 'eth_chainId'));
          copy.name = 'eth_chainIdAgain';
          (d.methods as Json[]).push(copy);
          (d.info as Json).version = '0.2.0';
        },
        ['x-since eth_chainIdAgain x-since'],
      ],
      ['a version that is not MAJOR.MINOR.PATCH', (d) => ((d.info as Json).version = 'v1'), ['version - info.version']],
      // What the reference OpenRPC tools cannot load (tools/contract/reference-tools.ts).
      [
        'a schema that refers to itself by $ref: a cycle the reference parser never finishes',
        (d) => (callFrameCalls(d).items = { $ref: '#/components/schemas/CallFrame' }),
        ['ref-cycle - components.schemas.CallFrame'],
      ],
      [
        'a $ref cycle through two schemas, reported once',
        (d) => (((schemas(d).CallFrameLog as Json).properties as Json).frame = { $ref: '#/components/schemas/CallFrame' }),
        ['ref-cycle - components.schemas.CallFrame'],
      ],
      [
        'a $ref into a schema from inside it',
        (d) => (spare(d).parent = { type: 'array', items: { $ref: '#/components/schemas/Spare/properties/parent' } }),
        ['ref-cycle - components.schemas.Spare.properties.parent'],
      ],
      [
        'a $ref that names nothing, one that is not local, one that is not a string',
        (d) => {
          const props = spare(d);
          props.a = { $ref: '#/components/schemas/Nowhere' };
          props.b = { $ref: 'https://example.com/schemas.json#/Block' };
          props.c = { $ref: 7 };
        },
        ['ref-unresolvable - components.schemas.Spare.properties.a', 'ref-unresolvable - components.schemas.Spare.properties.b', 'ref-unresolvable - components.schemas.Spare.properties.c'],
      ],
      ['an array schema without items', (d) => delete callFrameCalls(d).items, ['array-items - components.schemas.CallFrame.properties.calls']],
      [
        "a title that is also @open-rpc/generator's type for a method",
        (d) => {
          schemas(d).TxpoolStatus = { ...(schemas(d).PoolStatus as Json), title: 'TxpoolStatus' };
        },
        ['type-name - components.schemas.TxpoolStatus'],
      ],
      [
        'one title on two different schemas',
        (d) => ((method(d, 'eth_getCode').result as Json).schema = { title: 'Address', type: 'string' }),
        ['type-name eth_getCode result.schema'],
      ],
      [
        'an x-recursive-ref that closes no cycle, names no component, or carries more than its type',
        (d) => {
          (method(d, 'eth_getCode').result as Json).schema = { type: 'string', 'x-recursive-ref': '#/components/schemas/Bytes' };
          spare(d).self = { type: 'object', 'x-recursive-ref': '#/components/schemas/Nothing' };
          (callFrameCalls(d).items as Json).required = ['from'];
        },
        ['recursive-ref - components.schemas.CallFrame.properties.calls.items', 'recursive-ref - components.schemas.Spare.properties.self', 'recursive-ref eth_getCode result.schema'],
      ],
    ];
    it('a schema that does not compile, at each example that needs it', function () {
      const copy = structuredClone(doc);
      (((copy.components as Json).schemas as Json).Address as Json).type = 'text';
      const problems = lintContract(copy, releases).filter((p) => p.method === 'eth_getBalance');
      expect(problems.map((p) => `${p.rule} ${p.path}`)).to.deep.equal([
        'example-param examples["dev account 0 (10,000 ETH)"].params.address',
        'example-param examples["block omitted"].params.address',
      ]);
      expect(problems[0]!.message).to.match(/^does not validate against the param's schema: the schema does not compile \(/);
    });

    for (const [title, edit, expected] of cases) {
      it(title, function () {
        const found = lintEdited(edit);
        // An invalid info.version also puts every unreleased x-since in question; the version problem is the one asserted.
        expect(title.startsWith('a version') ? found.slice(0, 1) : found.sort()).to.deep.equal(expected);
      });
    }
  });
});
