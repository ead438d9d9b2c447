// patches/@ethereumjs+vm: the block builder handing runTx the transactions it holds rather than each created again,
// addTransactionResult for runs it did not make, and the request queues' system calls skipped when they would
// change nothing — answered as the unedited VM answers: each transaction's result or refusal (in the same words),
// each block's requests, roots and gas, and each traced step.
import type { PrefixedHexString } from '@ethereumjs/util';
import { expect } from 'chai';
import { devCommon, runCase, world, type AccountSpec, type Case } from '../../scripts/difftest/case.js';
import { systemAccounts } from '../../scripts/difftest/corpus/system.js';
import { tokenCase } from '../../scripts/difftest/corpus/token.js';
import { engines, type Engine, type Engines } from '../../scripts/difftest/engine.js';
import { Random } from '../../scripts/difftest/random.js';
import { SENDERS, Signer } from '../../scripts/difftest/signer.js';

const WITHDRAWALS = '0x00000961ef480eb55e80d19ad83579a64c007002' as PrefixedHexString;
const CONSOLIDATIONS = '0x0000bbddc7ce488642fb579f8b00f3a590007251' as PrefixedHexString;
const slot = (n: bigint) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));

/** An empty block (its system calls alone) on the system contracts, the queues' storage as given. */
function emptyBlock(name: string, queues: Record<string, [Uint8Array, Uint8Array][]>, trace = false, code?: Uint8Array): Case {
  const accounts: AccountSpec[] = systemAccounts(new Random(1)).map((account) => ({
    ...account,
    code: code !== undefined && account.address in queues ? code : account.code,
    storage: queues[account.address] ?? (account.address === WITHDRAWALS || account.address === CONSOLIDATIONS ? [] : account.storage),
  }));
  return {
    name,
    accounts,
    block: { number: 100n, timestamp: 1_700_000_000n, coinbase: '0x00000000000000000000000000000000000c01b5', gasLimit: 30_000_000n, baseFeePerGas: 7n, prevRandao: new Uint8Array(32).fill(1), excessBlobGas: 0n },
    steps: [],
    trace,
    asBlock: true,
  };
}

describe('patches/@ethereumjs+vm', function () {
  this.timeout(120_000);
  let both: Engines;
  let signer: Signer;
  before(async () => {
    both = await engines();
    signer = new Signer(both.edited);
  });

  it('builds blocks of many transactions as the unedited builder: each result or refusal in the same words, and the block', async () => {
    let refused = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const c = { ...tokenCase(seed, signer, false), asBlock: true };
      // and two the builder refuses, whose errors name the block (with its transactions' count)
      const fees = { type: 2, maxFeePerGas: 2n * 10n ** 9n, maxPriorityFeePerGas: 1n, to: SENDERS[1]!.address };
      c.steps.push({ kind: 'tx', raw: signer.sign(0, { ...fees, nonce: 1000n, gasLimit: 21_000n }) }, { kind: 'tx', raw: signer.sign(1, { ...fees, data: new Uint8Array(64).fill(1), gasLimit: 21_000n }) });
      const edited = await runCase(both.edited, c);
      const unedited = await runCase(both.pristine, c);
      refused += edited.outcomes.filter((outcome) => String(outcome.thrown).includes(' txs=')).length;
      expect(edited.outcomes, `seed ${seed}`).to.deep.equal(unedited.outcomes);
    }
    expect(refused, 'refusals among them').to.be.greaterThan(0);
  });

  it('makes, from runs it is handed with their results, the block the unedited builder makes by running them', async () => {
    const block = async (e: Engine, handed: boolean) => {
      const common = devCommon(e);
      const state = await world(e, common, SENDERS.map((s) => ({ address: s.address as PrefixedHexString, balance: 10n ** 21n })));
      const vm = await e.vm.createVM({ common, stateManager: state });
      const headerData = { number: 1n, timestamp: 1_700_000_000n, gasLimit: 30_000_000n, baseFeePerGas: 7n, coinbase: `0x${'c0'.repeat(20)}` as PrefixedHexString, parentBeaconBlockRoot: new Uint8Array(32) };
      const parentBlock = e.block.createBlock({ header: { number: 0n, gasLimit: 30_000_000n, baseFeePerGas: 7n, excessBlobGas: 0n, blobGasUsed: 0n, parentBeaconBlockRoot: new Uint8Array(32) } }, { common });
      const builder = await e.vm.buildBlock(vm, { parentBlock, headerData, withdrawals: [], blockOpts: { putBlockIntoBlockchain: false } });
      signer.reset();
      for (let i = 0; i < 12; i++) {
        const tx = e.tx.createTxFromRLP(signer.sign(i % SENDERS.length, { type: 2, to: SENDERS[(i + 1) % SENDERS.length]!.address, value: BigInt(i), gasLimit: 21_000n, maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 1n }), { common });
        if (!handed) {
          await builder.addTransaction(tx);
          continue;
        }
        const run = await e.vm.runTx(vm, { tx, block: e.block.createBlock({ header: headerData }, { common }), blockGasUsed: builder.gasUsed });
        (builder as unknown as { addTransactionResult(tx: unknown, result: unknown): void }).addTransactionResult(tx, run);
      }
      const { header } = (await builder.build()).block;
      return [header.stateRoot, header.receiptTrie, header.transactionsTrie, header.logsBloom, header.gasUsed].map((field) => String(field));
    };
    expect(await block(both.edited, true)).to.deep.equal(await block(both.pristine, false));
  });

  it("answers the request queues' system calls as the unedited VM, the queues idle or not, traced or not", async () => {
    const inhibitor = 2n ** 256n - 1n;
    const cases = [
      emptyBlock('both queues idle', {}),
      emptyBlock('both queues idle, traced', {}, true),
      emptyBlock('a request counted this block', { [WITHDRAWALS]: [[slot(1n), slot(1n)]] }),
      emptyBlock('an excess left from blocks before', { [CONSOLIDATIONS]: [[slot(0n), slot(3n)]] }),
      emptyBlock('the excess inhibitor (before the first call)', { [WITHDRAWALS]: [[slot(0n), slot(inhibitor)]], [CONSOLIDATIONS]: [[slot(0n), slot(inhibitor)]] }),
      emptyBlock('a request queued', { [WITHDRAWALS]: [[slot(3n), slot(1n)], [slot(4n), slot(0xaan)], [slot(5n), slot(0xbbn)], [slot(6n), slot(0xccn)]] }),
      emptyBlock('other code at the queues, counters zero', { [WITHDRAWALS]: [], [CONSOLIDATIONS]: [] }, false, Uint8Array.from([0x60, 0x01, 0x60, 0x00, 0x55, 0x00])),
    ];
    for (const c of cases) {
      const edited = await runCase(both.edited, c);
      const unedited = await runCase(both.pristine, c);
      expect(edited.outcomes, c.name).to.deep.equal(unedited.outcomes);
      expect(edited.trace, `${c.name}: its trace`).to.deep.equal(unedited.trace);
    }
    const traced = await runCase(both.edited, cases[1]!);
    expect(traced.trace?.filter((line) => line.startsWith('end ')), 'the traced block ran both calls').to.have.length(2);
  });
});
