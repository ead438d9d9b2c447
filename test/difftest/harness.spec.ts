// The differential test can fail: given an engine that answers differently from the pristine one — a gas figure
// off by one, a slot written that the transaction did not write, a traced step with other gas, a block replayed
// to another state — it reports the case, where the answers first differ, and the accounts that differ.
import { expect } from 'chai';
import { compareCase } from '../../scripts/difftest/compare.js';
import { compareChain, executionApisChain } from '../../scripts/difftest/corpus/chain.js';
import { tokenCase } from '../../scripts/difftest/corpus/token.js';
import { engines, type Engine, type Engines, type VM } from '../../scripts/difftest/engine.js';
import { Signer } from '../../scripts/difftest/signer.js';

type RunTx = Engine['vm']['runTx'];
type RunTxResult = Awaited<ReturnType<RunTx>>;

/** `e` with its VM library's runTx replaced by `runTx` (given the real one). */
function withRunTx(e: Engine, runTx: (real: RunTx, ...args: Parameters<RunTx>) => Promise<RunTxResult>): Engine {
  return { ...e, vm: { ...e.vm, runTx: ((...args: Parameters<RunTx>) => runTx(e.vm.runTx, ...args)) as RunTx } };
}

/** `e` whose VMs' `step` events carry one gas less than the EVM had left. */
function withStepGasOff(e: Engine): Engine {
  const createVM = async (...args: Parameters<Engine['vm']['createVM']>): Promise<VM> => {
    const vm = await e.vm.createVM(...args);
    const evm = vm.evm as unknown as { _emit(topic: string, data: unknown): Promise<void> };
    const emit = evm._emit.bind(evm);
    evm._emit = (topic, data) => emit(topic, topic === 'step' ? { ...(data as object), gasLeft: (data as { gasLeft: bigint }).gasLeft - 1n } : data);
    return vm;
  };
  return { ...e, vm: { ...e.vm, createVM: createVM as Engine['vm']['createVM'] } };
}

describe('the differential test, given an engine that differs', function () {
  this.timeout(300_000);
  let both: Engines;
  let signer: Signer;
  before(async () => {
    both = await engines();
    signer = new Signer(both.edited);
  });

  it('reports a transaction whose gas differs, and where', async () => {
    const off = withRunTx(both.edited, async (runTx, vm, opts) => {
      const result = await runTx(vm, opts);
      return { ...result, totalGasSpent: result.totalGasSpent + 1n };
    });
    const mismatch = await compareCase({ edited: off, pristine: both.pristine }, tokenCase(1, signer, false));
    expect(mismatch?.case).to.equal('token seed 1');
    expect(mismatch?.where).to.match(/^step 0 \/gas: edited "\d+" ≠ pristine "\d+"$/);
  });

  it('reports a state that differs after a transaction, with the account that differs and its storage on each side', async () => {
    const c = tokenCase(2, signer, false);
    const writes = withRunTx(both.edited, async (runTx, vm, opts) => {
      const result = await runTx(vm, opts);
      if (result.createdAddress !== undefined) await vm.stateManager.putStorage(result.createdAddress as never, new Uint8Array(32).fill(9), Uint8Array.of(1));
      return result;
    });
    const mismatch = await compareCase({ edited: writes, pristine: both.pristine }, c);
    expect(mismatch?.where).to.match(/^step 0 \/stateRoot: /);
    const differing = Object.entries(mismatch?.accounts ?? {});
    expect(differing.map(([address]) => address), 'the token (created by step 0) alone').to.have.length(1);
    const [, sides] = differing[0]!;
    const storageOf = (side: unknown) => side as { storageRoot: string; storage: Record<string, string> };
    expect(storageOf(sides.edited).storageRoot).not.to.equal(storageOf(sides.pristine).storageRoot);
    expect(Object.keys(storageOf(sides.edited).storage)).to.have.length(Object.keys(storageOf(sides.pristine).storage).length + 1);
  });

  it('reports a traced step that differs though every answer agrees', async () => {
    const mismatch = await compareCase({ edited: withStepGasOff(both.edited), pristine: both.pristine }, tokenCase(3, signer, true));
    expect(mismatch?.where).to.match(/^trace line 0 of \d+\/\d+: edited .* ≠ pristine /);
  });

  it('reports nothing for engines that agree (the same engine on both sides)', async () => {
    expect(await compareCase({ edited: both.pristine, pristine: both.pristine }, tokenCase(4, signer, true))).to.equal(undefined);
  });

  it('reports the blocks of the execution-apis chain that an engine replays to another state', async () => {
    const runBlock = both.edited.vm.runBlock;
    let blocks = 0;
    const skewed: Engine = {
      ...both.edited,
      vm: {
        ...both.edited.vm,
        runBlock: (async (vm: VM, opts: Parameters<typeof runBlock>[1]) => {
          // from the tenth block on, the coinbase of each gets one wei more
          if (++blocks >= 10) {
            const coinbase = opts.block.header.coinbase;
            const account = (await vm.stateManager.getAccount(coinbase as never)) ?? new both.edited.util.Account();
            account.balance += 1n;
            await vm.stateManager.putAccount(coinbase as never, account as never);
          }
          return runBlock(vm, opts);
        }) as typeof runBlock,
      },
    };
    const problems = await compareChain({ edited: skewed, pristine: both.pristine }, executionApisChain(process.cwd()), false);
    expect(problems.length).to.be.greaterThan(0);
    // runBlock refuses the block whose state root is not the header's; the pristine engine runs it
    expect(problems[0]).to.match(/^block 10: \/thrown: edited "invalid block stateRoot/);
  });
});
