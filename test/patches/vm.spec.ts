// patches/@ethereumjs+vm: the block builder handing runTx the transactions it holds rather than each created again,
// and addTransactionResult for runs it did not make, answered as the unedited VM answers: each transaction's result
// or refusal (in the same words), each block's roots and gas.
import type { PrefixedHexString } from '@ethereumjs/util';
import { expect } from 'chai';
import { devCommon, runCase, world } from '../../scripts/difftest/case.js';
import { tokenCase } from '../../scripts/difftest/corpus/token.js';
import { engines, type Engine, type Engines } from '../../scripts/difftest/engine.js';
import { SENDERS, Signer } from '../../scripts/difftest/signer.js';

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
});
