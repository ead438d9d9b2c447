import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { RequestGate } from '../../src/storage/request-gate.js';
import { StorageFault } from '../../src/storage/storage-fault.js';
import { FaultyLevel } from '../helpers/faulty-store.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('FailStopLevel: the guard every write passes', () => {
  let dir: string;
  let db: FaultyLevel;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evm-node-failstop-'));
    db = new FaultyLevel(dir, { keyEncoding: 'view', valueEncoding: 'view' });
    await db.open();
  });
  afterEach(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lets no write reach LevelDB after one failed, not even one issued beside it', async () => {
    db.failing = 'ENOSPC';
    const outcomes = await Promise.allSettled([db.put(bytes('a'), bytes('1')), db.put(bytes('b'), bytes('2')), db.sublevel('s').del('c')]);
    expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected', 'rejected']);
    const [first, ...rest] = outcomes.map((o) => (o as PromiseRejectedResult).reason as StorageFault);
    expect(first).to.be.instanceOf(StorageFault);
    for (const reason of rest) expect(reason).to.equal(first);
    expect(db.reached).to.equal(1);
  });

  it('tells its listeners once, and keeps refusing until the fault is cleared', async () => {
    const heard: string[] = [];
    db.onFault((fault) => heard.push(fault.message));
    db.failing = 'EIO';
    await db.put(bytes('a'), bytes('1')).catch(() => undefined);
    db.failing = undefined;
    await db.batch([{ type: 'put', key: bytes('b'), value: bytes('2') }]).catch(() => undefined);
    expect(heard).to.have.length(1);
    expect(await db.get(bytes('b'))).to.equal(undefined);
    db.clearFault();
    await db.put(bytes('b'), bytes('2'));
    expect(await db.get(bytes('b'))).to.deep.equal(bytes('2'));
  });

  it('refuses chained batches, which would write around the guard', () => {
    expect(() => db.batch()).to.throw(TypeError, /chained batches are not supported/);
  });
});

describe('RequestGate: requests side by side, a re-open alone', () => {
  const later = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  };

  it('starts the exclusive task only once the requests in flight are done, and holds new ones until it is', async () => {
    const gate = new RequestGate();
    const order: string[] = [];
    const inFlight = later();
    const first = gate.run(async () => {
      await inFlight.promise;
      order.push('request in flight done');
    });
    const exclusive = gate.exclusive(async () => order.push('exclusive'));
    const held = gate.run(async () => order.push('new request'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).to.deep.equal([]);
    inFlight.resolve();
    await Promise.all([first, exclusive, held]);
    expect(order).to.deep.equal(['request in flight done', 'exclusive', 'new request']);
  });

  it('refuses requests with the fault while refusing, and runs them again once accepting', async () => {
    const gate = new RequestGate();
    const fault = new StorageFault('storage failure: closed');
    gate.refuse(fault);
    const refused = await gate.run(async () => 'ran').catch((error: unknown) => error);
    expect(refused).to.equal(fault);
    gate.accept();
    expect(await gate.run(async () => 'ran')).to.equal('ran');
  });
});
