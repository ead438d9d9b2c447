// patches/@ethereumjs+statemanager: getMerkleStateProof taking each slot's value from the walk that proves it
// answers what the unedited one answers — accounts present and absent, slots set, cleared, never set and written
// since the last state root (still in the caches), and keys of the wrong length refused in the same words. And
// flush(), writing each account's slots and then the accounts as one trie batch each, leaves the roots the
// unedited flush (a trie put per slot and per account) leaves.
import type { PrefixedHexString } from '@ethereumjs/util';
import { expect } from 'chai';
import { devCommon } from '../../scripts/difftest/case.js';
import { engines, type Engine, type Engines } from '../../scripts/difftest/engine.js';
import { Random } from '../../scripts/difftest/random.js';

const ADDRESSES = Array.from({ length: 6 }, (_, i) => `0x${(0xacc0 + i).toString(16).padStart(40, '0')}` as PrefixedHexString);
const key = (n: number) => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));

/** The proofs of every address (one never written) with a few slots each, on a state made by `random` on engine `e`. */
async function proofs(e: Engine, seed: number): Promise<unknown[]> {
  const random = new Random(seed);
  const state = new e.statemanager.MerkleStateManager({ common: devCommon(e), caches: random.chance(0.5) ? new e.statemanager.Caches() : undefined });
  for (const address of ADDRESSES.slice(1)) {
    const at = e.util.createAddressFromString(address);
    await state.putAccount(at, new e.util.Account(BigInt(random.int(3)), BigInt(random.int(1000))));
    for (let i = random.int(12); i > 0; i--) await state.putStorage(at, key(random.int(16)), random.chance(0.2) ? new Uint8Array(0) : random.bytes(1 + random.int(32)));
  }
  await state.getStateRoot();
  // written after the root: in the caches (when it has them) until the proof flushes them
  for (const address of ADDRESSES.slice(1, 3)) await state.putStorage(e.util.createAddressFromString(address), key(random.int(16)), random.bytes(1 + random.int(32)));
  const out: unknown[] = [];
  for (const address of ADDRESSES) {
    const slots = [key(0), key(1 + random.int(15)), key(1000), ...(random.chance(0.3) ? [new Uint8Array(31).fill(1)] : []), ...(random.chance(0.3) ? [new Uint8Array(33).fill(1)] : [])];
    try {
      out.push(await e.statemanager.getMerkleStateProof(state, e.util.createAddressFromString(address), slots));
    } catch (error) {
      out.push({ error: (error as Error).message });
    }
  }
  return out;
}

/** The state roots of `rounds` rounds of random writes on a state with caches, flushed at each root (some rounds reverted). */
async function roots(e: Engine, seed: number): Promise<string[]> {
  const random = new Random(seed);
  const state = new e.statemanager.MerkleStateManager({ common: devCommon(e), caches: new e.statemanager.Caches() });
  const out: string[] = [];
  for (let round = 0; round < 8; round++) {
    const reverted = round > 0 && random.chance(0.25);
    await state.checkpoint();
    for (let n = random.int(14); n > 0; n--) {
      const at = e.util.createAddressFromString(random.pick(ADDRESSES));
      const account = await state.getAccount(at);
      switch (random.int(8)) {
        case 0:
          await state.deleteAccount(at);
          break;
        case 1:
          if (account !== undefined) await state.clearStorage(at);
          break;
        case 2:
          await state.putCode(at, random.bytes(1 + random.int(40)));
          break;
        case 3:
          await state.putAccount(at, new e.util.Account(BigInt(random.int(5)), BigInt(random.int(1000))));
          break;
        default:
          if (account === undefined) await state.putAccount(at, new e.util.Account(1n));
          // slots set, reset, zeroed (deleted) and zeroed where never set
          for (let i = 1 + random.int(10); i > 0; i--) await state.putStorage(at, key(random.int(24)), random.chance(0.25) ? new Uint8Array(0) : random.bytes(1 + random.int(32)));
      }
    }
    await (reverted ? state.revert() : state.commit());
    out.push(e.util.bytesToHex(await state.getStateRoot()));
  }
  return out;
}

describe('patches/@ethereumjs+statemanager', function () {
  this.timeout(60_000);
  let both: Engines;
  before(async () => {
    both = await engines();
  });

  it('proves accounts and slots as the unedited getMerkleStateProof does, value for value and node for node', async () => {
    let refused = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const edited = await proofs(both.edited, seed);
      expect(edited, `seed ${seed}`).to.deep.equal(await proofs(both.pristine, seed));
      refused += edited.filter((proof) => (proof as { error?: string }).error !== undefined).length;
    }
    expect(refused, 'keys of the wrong length among them').to.be.greaterThan(0);
  });

  it('flushes slots and accounts to the state roots of the unedited flush, round by round', async () => {
    for (let seed = 1; seed <= 150; seed++) expect(await roots(both.edited, seed), `seed ${seed}`).to.deep.equal(await roots(both.pristine, seed));
  });
});
