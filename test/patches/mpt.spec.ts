// patches/@ethereumjs+mpt: batch() applying its operations to nodes held in memory and hashing each changed
// node once at the end answers what the unedited batch() (a put or del per operation) answers: the same root,
// the same values and proofs read back from a fresh trie over what it wrote, and the same refusals; and findPath
// following the one path node by node finds what the unedited one (a walk through a task queue) finds.
import { expect } from 'chai';
import { engines, type Engine, type Engines } from '../../scripts/difftest/engine.js';
import { Random } from '../../scripts/difftest/random.js';

type Trie = Awaited<ReturnType<Engine['mpt']['createMPT']>>;
interface Op {
  type: 'put' | 'del';
  key: Uint8Array;
  value?: Uint8Array;
}

const hex = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes).toString('hex'));

/**
 * Keys from a small alphabet and of a few lengths, so that they share prefixes (extension nodes), end
 * inside others (values in branches) and repeat; values short (nodes inlined under 32 bytes) or long.
 */
function randomKey(random: Random): Uint8Array {
  const key = new Uint8Array(1 + random.int(4));
  for (let i = 0; i < key.length; i++) key[i] = random.pick([0x00, 0x01, 0x10, 0x11, 0x12, 0xab, 0xff]);
  return key;
}
const randomValue = (random: Random) => (random.chance(0.1) ? new Uint8Array(0) : random.bytes(random.chance(0.5) ? 1 + random.int(4) : 20 + random.int(60)));

function randomOps(random: Random, known: Uint8Array[], count: number): Op[] {
  return Array.from({ length: count }, (): Op => {
    const key = known.length > 0 && random.chance(0.5) ? random.pick(known) : randomKey(random);
    known.push(key);
    return random.chance(0.3) ? { type: 'del', key } : { type: 'put', key, value: randomValue(random) };
  });
}

/** What a trie holds as read back by a fresh trie over the same database: the root, every key's value and proof. */
async function readBack(e: Engine, trie: Trie, keys: Uint8Array[], hashed: boolean): Promise<unknown> {
  const fresh = await e.mpt.createMPT({ db: trie.database().db, root: trie.root(), useKeyHashing: hashed });
  const out: unknown[] = [hex(trie.root())];
  for (const key of keys) out.push([hex(key), hex(await fresh.get(key)), (await e.mpt.createMerkleProof(fresh, key)).map(hex)]);
  return out;
}

/** A trie of `seed`'s options and first keys, put one by one, then a random batch (or `ops`): what it holds, or the refusal. */
async function run(e: Engine, seed: number, ops?: (random: Random, known: Uint8Array[]) => Op[], opts: Record<string, unknown> = {}): Promise<unknown[]> {
  const random = new Random(seed);
  const hashed = random.chance(0.5);
  const trie = await e.mpt.createMPT({ useKeyHashing: hashed, ...opts });
  const known: Uint8Array[] = [];
  for (const op of randomOps(random, known, random.int(30))) await (op.type === 'put' ? trie.put(op.key, op.value!) : trie.del(op.key));
  const batches = 1 + random.int(3);
  const outcome: unknown[] = [];
  for (let b = 0; b < batches; b++) {
    if (random.chance(0.3)) trie.checkpoint();
    try {
      await trie.batch((ops ?? ((r, k) => randomOps(r, k, 1 + r.int(40))))(random, known) as never);
      outcome.push('ok');
    } catch (error) {
      outcome.push((error as Error).message);
    }
    if (trie.hasCheckpoints()) await (random.chance(0.5) ? trie.commit() : trie.revert());
    outcome.push(await readBack(e, trie, known, hashed));
  }
  // the trie goes on from there as it would have
  await trie.put(randomKey(random), random.bytes(40));
  outcome.push(hex(trie.root()));
  return outcome;
}

describe('patches/@ethereumjs+mpt', function () {
  this.timeout(120_000);
  let both: Engines;
  before(async () => {
    both = await engines();
  });

  it('batches puts, deletes and empty values to the root, values and proofs of the unedited batch', async () => {
    for (let seed = 1; seed <= 300; seed++) expect(await run(both.edited, seed), `seed ${seed}`).to.deep.equal(await run(both.pristine, seed));
  });

  it('batches into an empty trie, and deletes every key of one, as the unedited batch does', async () => {
    const all = (random: Random, known: Uint8Array[]): Op[] => [...randomOps(random, known, 10), ...known.map((key) => ({ type: 'del' as const, key }))];
    for (let seed = 1; seed <= 40; seed++) {
      expect(await run(both.edited, seed, all), `seed ${seed}`).to.deep.equal(await run(both.pristine, seed, all));
      const fresh = async (e: Engine) => {
        const trie = await e.mpt.createMPT({ useKeyHashing: true });
        await trie.batch(randomOps(new Random(seed), [], 1 + (seed % 5)).filter((op) => op.type === 'put') as never);
        return readBack(e, trie, randomOps(new Random(seed), [], 1 + (seed % 5)).map((op) => op.key), true);
      };
      expect(await fresh(both.edited), `seed ${seed}, empty trie`).to.deep.equal(await fresh(both.pristine));
    }
  });

  it('refuses an operation without a value, and the root key where roots persist, keeping the operations before it as the unedited batch does', async () => {
    const invalid = (random: Random, known: Uint8Array[]): Op[] => [...randomOps(random, known, 5), { type: 'put', key: randomKey(random) }, ...randomOps(random, known, 5)];
    const rootKey = (random: Random, known: Uint8Array[]): Op[] => [...randomOps(random, known, 5), { type: 'put', key: new TextEncoder().encode('__root__'), value: random.bytes(32) }];
    for (let seed = 1; seed <= 20; seed++) {
      const edited = await run(both.edited, seed, invalid);
      expect(edited, `seed ${seed}`).to.deep.equal(await run(both.pristine, seed, invalid));
      expect(edited).to.include('Invalid batch db operation');
      const persisted = await run(both.edited, seed, rootKey, { useRootPersistence: true });
      expect(persisted, `seed ${seed}, root persistence`).to.deep.equal(await run(both.pristine, seed, rootKey, { useRootPersistence: true }));
      expect(persisted.filter((o) => String(o).startsWith('Attempted to set'))).to.not.be.empty;
    }
  });

  it('reads while a batch is under way answer from the root before it (the unedited puts leave a root between them too)', async () => {
    let midway = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const random = new Random(seed);
      const e = both.edited;
      const trie = await e.mpt.createMPT({ useKeyHashing: true });
      const known: Uint8Array[] = [];
      for (const op of randomOps(random, known, 20 + random.int(30))) if (op.type === 'put') await trie.put(op.key, op.value!);
      const before = await readBack(e, trie, known, true);
      // The batch's database read number `held` waits until the reads are done: they run with the batch part-way.
      const db = trie.database().db as unknown as { get(key: unknown): Promise<unknown> };
      const get = db.get.bind(db);
      const held = 3 + (seed % 7);
      let gets = 0;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let reached!: () => void;
      const holding = new Promise<void>((resolve) => (reached = resolve));
      db.get = async (key) => {
        if (++gets === held) {
          reached();
          await gate;
        }
        return get(key);
      };
      const batching = trie.batch(randomOps(random, known.slice(), 10 + random.int(20)) as never);
      const settled = await Promise.race([holding.then(() => 'holding'), batching.then(() => 'done')]);
      if (settled === 'holding') {
        midway++;
        const fresh = [hex(trie.root()), ...(await Promise.all(known.map(async (key) => [hex(key), hex(await trie.get(key)), (await e.mpt.createMerkleProof(trie, key)).map(hex)])))];
        expect(fresh, `seed ${seed}: read while the batch holds`).to.deep.equal(before);
      }
      release();
      await batching;
    }
    expect(midway, 'seeds whose reads ran with the batch part-way').to.be.at.least(15);
  });

  it("finds a key's path, present, absent or behind a node the database lost, as the unedited findPath does", async () => {
    const lookUp = async (e: Engine, seed: number) => {
      const random = new Random(seed);
      const trie = await e.mpt.createMPT({ useKeyHashing: random.chance(0.5) });
      const known: Uint8Array[] = [];
      // put one by one, so that both databases hold the same nodes
      for (const op of randomOps(random, known, 5 + random.int(40))) if (op.type === 'put') await trie.put(op.key, op.value!);
      // a node the database no longer has (none when the root is the only node)
      const stored = [...(trie.database().db as unknown as { _database: Map<string, unknown> })._database.keys()].filter((key) => key !== hex(trie.root()));
      if (stored.length > 0) await trie.database().db.del(random.pick(stored) as never);
      const out: unknown[] = [];
      for (const key of [...known, randomKey(random)]) {
        for (const throwIfMissing of [false, true]) {
          try {
            out.push(hex(await trie.get(key, throwIfMissing)));
          } catch (error) {
            out.push((error as Error).message);
          }
        }
        const { node, remaining, stack } = await trie.findPath(key);
        out.push([node === null ? null : hex(node.serialize()), remaining, stack.map((n) => hex(n.serialize()))]);
      }
      return out;
    };
    let missing = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const edited = await lookUp(both.edited, seed);
      expect(edited, `seed ${seed}`).to.deep.equal(await lookUp(both.pristine, seed));
      missing += edited.filter((o) => o === 'Missing node in DB').length;
    }
    expect(missing, 'lookups that met the lost node').to.be.greaterThan(0);
  });

  it('batches with node pruning and with untransformed keys as the unedited batch does', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      expect(await run(both.edited, seed, undefined, { useNodePruning: true }), `seed ${seed}, pruning`).to.deep.equal(await run(both.pristine, seed, undefined, { useNodePruning: true }));
      const untransformed = async (e: Engine) => {
        const random = new Random(seed);
        const trie = await e.mpt.createMPT({ useKeyHashing: true });
        const keys = Array.from({ length: 12 }, () => random.bytes(32));
        await trie.batch(keys.map((key) => ({ type: 'put', key, value: random.bytes(8) })) as never, true);
        // an empty value deletes by the transformed key (put's del(key)), a del by the key as given
        await trie.batch([{ type: 'put', key: keys[0], value: new Uint8Array(0) }, { type: 'del', key: keys[1] }] as never, true);
        return [hex(trie.root()), ...(await Promise.all(keys.map(async (key) => hex((await trie.findPath(key)).node?.value() ?? null))))];
      };
      expect(await untransformed(both.edited), `seed ${seed}, skipKeyTransform`).to.deep.equal(await untransformed(both.pristine));
    }
  });
});
