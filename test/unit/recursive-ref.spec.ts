// A call frame's `calls` name CallFrame by "x-recursive-ref", not "$ref" (a $ref cycle, which the reference OpenRPC
// tools cannot load): everything of ours still checks a nested frame in full, however deep — the node's validators,
// the contract lint's example checks, the playground's schema checks — and the SDK's CallFrame type nests.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { resultError } from '../../generated/index.js';
import { CLIENT_GENERATED_DIR } from '../../scripts/generator/client.js';
import { loadContract } from '../../shared/contract/document.js';
import { lintContract } from '../../tools/contract/lint.js';
import { projectRoot } from '../../shared/contract/root.js';
import { checkSchema } from '../../playground/schema-check.js';

type Frame = { [key: string]: unknown };

const ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

/** A CALL frame with one subcall, `depth` levels down; the innermost frame gets `innermost`'s members. */
function nested(depth: number, innermost: Frame = {}): Frame {
  const frame: Frame = { type: 'CALL', from: ADDRESS, to: ADDRESS, gas: '0x5208', gasUsed: '0x5208', input: '0x', value: '0x0' };
  return depth === 0 ? { ...frame, ...innermost } : { ...frame, calls: [nested(depth - 1, innermost)] };
}

const DEPTH = 40;
const doc = loadContract();
const traceResult = ((doc.methods as Frame[]).find((m) => m.name === 'debug_traceTransaction')!.result as Frame).schema;

describe('call frames nested through x-recursive-ref', function () {
  it('validate in full at any depth in the node’s validators', function () {
    expect(resultError('debug_traceTransaction', nested(DEPTH))).to.equal(null);
    expect(resultError('debug_traceTransaction', nested(DEPTH, { gas: 21000 }))).to.match(/gas/);
    expect(resultError('debug_traceTransaction', nested(DEPTH, { unknownMember: true }))).to.not.equal(null);
  });

  it('validate in full at any depth in the playground’s schema checks', function () {
    expect(checkSchema(doc, traceResult, nested(DEPTH))).to.deep.equal({ valid: true });
    const verdict = checkSchema(doc, traceResult, nested(DEPTH, { gas: 21000 }));
    expect(verdict.valid).to.equal(false);
  });

  it('are checked in full in the contract lint’s examples', function () {
    const edited = structuredClone(doc) as { methods: Frame[] };
    const method = edited.methods.find((m) => m.name === 'debug_traceTransaction')!;
    method.examples = [{ name: 'deep', params: (method.examples as Frame[])[0]!.params, result: { name: 'trace', value: nested(3, { gas: 21000 }) } }];
    const problems = lintContract(edited as never).filter((p) => p.method === 'debug_traceTransaction');
    expect(problems.map((p) => p.rule)).to.deep.equal(['example-result']);
  });

  it('keep the SDK’s and the node’s CallFrame types nesting', function () {
    for (const file of [path.join(projectRoot(), 'generated', 'types.ts'), path.join(projectRoot(), CLIENT_GENERATED_DIR, 'types.ts')]) {
      expect(readFileSync(file, 'utf8'), file).to.match(/export type CallFrame = \{[^]*?\n  calls\?: CallFrame\[\];/);
    }
  });
});
