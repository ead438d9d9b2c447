// patches/@ethereumjs+evm: the edited interpreter — steps nobody traces run in place, awaited only when they wait;
// the jump analysis made once per code; results assembled by Object.assign; a traced step's memory a view, not
// a copy — answers what the unedited one answers: per transaction and message, traced or not, over state whose
// reads wait, and field for field.
import type { PrefixedHexString } from '@ethereumjs/util';
import { expect } from 'chai';
import { devCommon, runCase, world, type AccountSpec, type MakeState } from '../../scripts/difftest/case.js';
import { randomCase } from '../../scripts/difftest/corpus/random.js';
import { engines, type Engine, type Engines } from '../../scripts/difftest/engine.js';
import { Random } from '../../scripts/difftest/random.js';
import { Signer } from '../../scripts/difftest/signer.js';

const CALLER = '0x00000000000000000000000000000000000ca11e' as PrefixedHexString;
const CONTRACT = '0x000000000000000000000000000000000000c0de' as PrefixedHexString;
const code = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'));

/** Programs that end each way a message ends: returns (with a loop and storage), reverts, runs out of gas, halts on a bad jump. */
const PROGRAMS = {
  returns: code('600a5b600190038060025760005460005260206000f3'), // loop 10 times, SLOAD 0, return it
  reverts: code('60aa60005260206000fd'),
  outOfGas: code('5b600056'),
  badJump: code('600356'),
  /** stores 10 words, the memory growing at each */
  growsMemory: code('600a5b808060200252600190038060025700'),
};

/** The Interpreter class an engine runs, found on a message's result (the package does not export it). */
async function interpreterOf(e: Engine): Promise<{ prototype: Record<string, (...args: never[]) => unknown> }> {
  const common = devCommon(e);
  const vm = await e.vm.createVM({ common, stateManager: await world(e, common, [{ address: CONTRACT, code: PROGRAMS.returns }]) });
  const result = await vm.evm.runCall({ to: e.util.createAddressFromString(CONTRACT), gasLimit: 100_000n });
  return (result.execResult.runState as unknown as { interpreter: { constructor: never } }).interpreter.constructor;
}

/** A world whose every read waits for the event loop (as a read from disk does) before answering. */
const waitingReads: MakeState = async (e, common, accounts) => {
  const state = await world(e, common, accounts);
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  for (const name of ['getAccount', 'getStorage', 'getCode', 'getCodeSize'] as const) {
    const read = (state[name] as (...args: unknown[]) => Promise<unknown>).bind(state);
    (state as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      await tick();
      return read(...args);
    };
  }
  return state;
};

describe('patches/@ethereumjs+evm', function () {
  this.timeout(120_000);
  let both: Engines;
  let signer: Signer;
  before(async () => {
    both = await engines();
    signer = new Signer(both.edited);
  });

  it('runs steps nobody traces in place, answering as traced steps and as the unedited EVM do', async () => {
    const interpreter = await interpreterOf(both.edited);
    const runStep = interpreter.prototype.runStep!;
    let traced = 0;
    interpreter.prototype.runStep = function (this: unknown, ...args: never[]) {
      traced++;
      return runStep.apply(this, args);
    };
    try {
      for (let seed = 1; seed <= 120; seed++) {
        const c = randomCase(seed, signer, false);
        const before = traced;
        const inPlace = await runCase(both.edited, c);
        expect(traced, `seed ${seed}: an untraced run took runStep`).to.equal(before);
        const stepByStep = await runCase(both.edited, { ...c, trace: true });
        const unedited = await runCase(both.pristine, c);
        expect(inPlace.outcomes, `seed ${seed}: in place and traced`).to.deep.equal(stepByStep.outcomes);
        expect(inPlace.outcomes, `seed ${seed}: edited and unedited`).to.deep.equal(unedited.outcomes);
      }
      expect(traced, 'the traced runs took runStep').to.be.greaterThan(1000);
    } finally {
      interpreter.prototype.runStep = runStep;
    }
  });

  it('shows each step its memory as the unedited EVM does, to listeners that read it after a wait, and in traced runs of generated programs', async () => {
    const memories = async (e: Engine) => {
      const common = devCommon(e);
      const vm = await e.vm.createVM({ common, stateManager: await world(e, common, [{ address: CONTRACT, code: PROGRAMS.growsMemory }]) });
      const seen: string[] = [];
      // As the node's tracers do: the listener reads the step's memory after other work had its turn.
      const step = (s: { pc: number; memory: Uint8Array }, resolve?: () => void) => {
        setImmediate(() => {
          seen.push(`${s.pc} ${Buffer.from(s.memory).toString('hex')}`);
          resolve?.();
        });
      };
      vm.evm.events!.on('step', step as never);
      await vm.evm.runCall({ to: e.util.createAddressFromString(CONTRACT), gasLimit: 100_000n });
      return seen;
    };
    const edited = await memories(both.edited);
    expect(edited).to.deep.equal(await memories(both.pristine));
    expect(new Set(edited.map((line) => line.split(' ')[1])).size, 'memories seen').to.be.greaterThan(10);
    for (let seed = 300; seed < 340; seed++) {
      const c = randomCase(seed, signer, true);
      expect((await runCase(both.edited, c)).trace, `seed ${seed}`).to.deep.equal((await runCase(both.pristine, c)).trace);
    }
  });

  it('waits for state reads that wait for the event loop, and answers as the unedited EVM', async () => {
    for (let seed = 200; seed < 260; seed++) {
      const c = randomCase(seed, signer, false);
      const edited = await runCase(both.edited, c, waitingReads);
      const unedited = await runCase(both.pristine, c);
      expect(edited.outcomes, `seed ${seed}`).to.deep.equal(unedited.outcomes);
    }
  });

  it('finds the jump destinations, pushes and opcodes the unedited analysis finds, once per code buffer', async () => {
    const [edited, unedited] = await Promise.all([interpreterOf(both.edited), interpreterOf(both.pristine)]);
    // One EVM each, as a VM keeps one: the analyses are kept per opcode table, which each EVM makes for itself.
    const evms = new Map<Engine, unknown>();
    for (const e of [both.edited, both.pristine]) evms.set(e, (await e.vm.createVM({ common: devCommon(e) })).evm);
    const analyse = async (e: Engine, of: typeof edited, bytes: Uint8Array) => {
      const evm = evms.get(e) as { common: unknown };
      const common = evm.common;
      const instance = Object.create(of.prototype) as { _evm: unknown; common: unknown; _getValidJumpDestinations(code: Uint8Array): { jumps: Uint8Array; pushes: Record<number, bigint>; opcodesCached: { opcodeInfo: { name: string } }[] } };
      instance._evm = evm;
      instance.common = common;
      return instance._getValidJumpDestinations(bytes);
    };
    const shown = (a: Awaited<ReturnType<typeof analyse>>) => ({ jumps: Buffer.from(a.jumps).toString('hex'), pushes: Object.entries(a.pushes).map(([at, value]) => `${at}:${value}`), ops: a.opcodesCached.map((op) => op?.opcodeInfo.name) });
    const random = new Random(3);
    for (let i = 0; i < 300; i++) {
      // JUMPDESTs, PUSHes (some cut short by the end of the code) and anything else
      const bytes = Uint8Array.from({ length: random.int(200) }, () => (random.chance(0.2) ? 0x5b : random.chance(0.3) ? 0x60 + random.int(32) : random.int(256)));
      const first = await analyse(both.edited, edited, bytes);
      expect(shown(first), `code ${Buffer.from(bytes).toString('hex')}`).to.deep.equal(shown(await analyse(both.pristine, unedited, bytes)));
      expect(await analyse(both.edited, edited, bytes), 'the same buffer again').to.equal(first);
      expect(shown(await analyse(both.edited, edited, Uint8Array.from(bytes))), 'a copy of it').to.deep.equal(shown(first));
    }
  });

  it("gives each message's result the unedited fields, in the same order, with the same values", async () => {
    const accounts: AccountSpec[] = [{ address: CALLER, balance: 10n ** 18n }, ...Object.values(PROGRAMS).map((program, i) => ({ address: `0x${(0xc0de00 + i).toString(16).padStart(40, '0')}` as PrefixedHexString, code: program, storage: [[new Uint8Array(32), Uint8Array.of(7)]] as [Uint8Array, Uint8Array][] }))];
    const results = async (e: Engine) => {
      const common = devCommon(e);
      const vm = await e.vm.createVM({ common, stateManager: await world(e, common, accounts) });
      const out: unknown[] = [];
      const messages = [...accounts.slice(1).map((a) => ({ to: e.util.createAddressFromString(a.address) })), { data: PROGRAMS.returns }];
      for (const message of messages) {
        const { execResult } = await vm.evm.runCall({ caller: e.util.createAddressFromString(CALLER), gasLimit: 50_000n, ...message });
        const runState = execResult.runState as unknown as Record<string, unknown>;
        out.push({
          fields: Object.keys(execResult),
          runStateFields: Object.keys(runState),
          error: execResult.exceptionError?.error,
          gas: [execResult.executionGasUsed, execResult.gas, execResult.gasRefund].map(String),
          returned: Buffer.from(execResult.returnValue).toString('hex'),
          logs: execResult.logs?.length,
          // what the state of a message's run holds: the frame's, then the result's, then its environment's
          runState: ['programCounter', 'gasLeft', 'code', 'depth', 'isCreate', 'gasRefund', 'logs', 'returnValue'].map((name) => String(runState[name])),
        });
      }
      return out;
    };
    expect(await results(both.edited)).to.deep.equal(await results(both.pristine));
  });
});
