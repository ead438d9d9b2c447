// The filter registry on its own, over a memory-level chain, with an injected clock: expiry,
// limits, ownership and persistence without waiting for real time to pass.
import { expect } from 'chai';
import { MemoryLevel } from 'memory-level';
import { Chain } from '../../src/chain/chain.js';
import { devGenesis } from '../../src/chain/dev-genesis.js';
import { DEFAULTS } from '../../src/config.js';
import { LogQuery } from '../../src/filters/log-query.js';
import { FilterRegistry, type FilterRegistryOptions } from '../../src/filters/registry.js';
import { toRpcError } from '../../src/rpc/domain-errors.js';
import { RpcError } from '../../src/rpc/errors.js';
import { sectionsOf, type BinaryLevel, type Database } from '../../src/storage/database.js';

const MINUTE = 60_000;

async function rejects(promise: Promise<unknown>, code: number, message: string | RegExp): Promise<void> {
  try {
    await promise;
  } catch (error) {
    const answer = toRpcError(error);
    expect(answer, `${String(error)} is not an error the node answers with`).to.be.instanceOf(RpcError);
    expect(answer!.code).to.equal(code);
    if (typeof message === 'string') expect(answer!.message).to.equal(message);
    else expect(answer!.message).to.match(message);
    return;
  }
  expect.fail('expected a rejection');
}

describe('filter registry', () => {
  let db: Database;
  let chain: Chain;
  let clock: number;
  const registries: FilterRegistry[] = [];

  async function open(overrides: Partial<FilterRegistryOptions> = {}): Promise<FilterRegistry> {
    const registry = await FilterRegistry.open(db.filters, chain, new LogQuery(chain, { maxBlocks: 100, maxResults: 100 }), {
      timeoutMs: 5 * MINUTE,
      maxFilters: 100,
      now: () => clock,
      sweepIntervalMs: 0,
      ...overrides,
    });
    registries.push(registry);
    return registry;
  }

  beforeEach(async () => {
    const root = new MemoryLevel<Uint8Array, Uint8Array>({ keyEncoding: 'view', valueEncoding: 'view' }) as unknown as BinaryLevel;
    await root.open();
    db = sectionsOf(root);
    chain = await Chain.open(db, devGenesis({ chainId: 31337n, hardfork: DEFAULTS.hardfork, accounts: [], balance: 0n, gasLimit: 30_000_000n }));
    clock = 1_000_000;
  });
  afterEach(async () => {
    for (const registry of registries.splice(0)) await registry.close();
    await db.close();
  });

  describe('expiry', () => {
    it('never expires a filter while the chain produces no blocks', async () => {
      const registry = await open();
      const id = await registry.newBlockFilter();
      clock += 24 * 60 * MINUTE;
      expect(registry.sweep()).to.deep.equal([]);
      expect(await registry.changes(id)).to.deep.equal([]);
    });

    it('counts the timeout from the first block after the last poll', async () => {
      const registry = await open();
      const id = await registry.newBlockFilter();
      clock += 60 * MINUTE; // idle chain: does not count
      registry.blockLanded(); // the clock starts here
      clock += 2 * MINUTE;
      registry.blockLanded(); // later blocks do not restart it
      clock += 3 * MINUTE - 1;
      expect(registry.sweep()).to.deep.equal([]);
      await registry.changes(id); // a poll stops the clock
      clock += 10 * MINUTE;
      expect(registry.sweep()).to.deep.equal([]);
      registry.blockLanded();
      clock += 5 * MINUTE;
      expect(registry.sweep()).to.deep.equal([id]);
      await rejects(registry.changes(id), -32000, 'filter not found');
      expect(await registry.uninstall(id)).to.equal(false);
    });

    it('answers an expired filter with "filter not found" even before a sweep', async () => {
      const registry = await open();
      const logs = await registry.newLogFilter({});
      const pending = await registry.newPendingTransactionFilter();
      registry.blockLanded();
      clock += 5 * MINUTE;
      await rejects(registry.changes(logs), -32000, 'filter not found');
      await rejects(registry.logs(logs), -32000, 'filter not found');
      await rejects(registry.changes(pending), -32000, 'filter not found');
      expect(registry.size).to.equal(0);
    });

    it('does not count an expired filter as uninstalled', async () => {
      const registry = await open();
      const id = await registry.newBlockFilter();
      registry.blockLanded();
      clock += 5 * MINUTE;
      expect(await registry.uninstall(id)).to.equal(false);
    });

    it('forgets expired filters on disk too', async () => {
      const first = await open();
      const kept = await first.newBlockFilter();
      const lost = await first.newBlockFilter();
      first.blockLanded();
      clock += 4 * MINUTE;
      await first.changes(kept);
      clock += MINUTE;
      expect(first.sweep()).to.deep.equal([lost]);
      await first.close();
      const second = await open();
      expect(second.size).to.equal(1);
      expect(await second.changes(kept)).to.deep.equal([]);
      await rejects(second.changes(lost), -32000, 'filter not found');
    });

    it('sweeps when blocks land', async () => {
      const registry = await open();
      await registry.newBlockFilter();
      registry.blockLanded();
      clock += 5 * MINUTE;
      registry.blockLanded();
      expect(registry.size).to.equal(0);
    });
  });

  describe('lifecycle', () => {
    it('uninstalls once: true, then false', async () => {
      const registry = await open();
      const id = await registry.newLogFilter({});
      expect(await registry.uninstall(id)).to.equal(true);
      expect(await registry.uninstall(id)).to.equal(false);
      await rejects(registry.changes(id), -32000, 'filter not found');
    });

    it('finds an id however its hex is written', async () => {
      const registry = await open();
      const id = await registry.newBlockFilter();
      expect(id).to.match(/^0x[0-9a-f]{1,32}$/);
      expect(await registry.changes(`0x000${id.slice(2).toUpperCase()}`)).to.deep.equal([]);
    });

    it('refuses filters past the limit, with -32005', async () => {
      const registry = await open({ maxFilters: 2 });
      const first = await registry.newBlockFilter();
      await registry.newPendingTransactionFilter();
      await rejects(registry.newLogFilter({}), -32005, /too many filters: the limit is 2/);
      await registry.uninstall(first);
      await registry.newLogFilter({});
    });

    it('counts expired filters out before refusing', async () => {
      const registry = await open({ maxFilters: 1 });
      await registry.newBlockFilter();
      registry.blockLanded();
      clock += 5 * MINUTE;
      await registry.newBlockFilter();
      expect(registry.size).to.equal(1);
    });

    it('drops the filters of a closed connection and never persists them', async () => {
      const registry = await open();
      const connection = {};
      const owned = await registry.newBlockFilter(connection);
      const free = await registry.newBlockFilter();
      registry.dropOwner(connection);
      await rejects(registry.changes(owned), -32000, 'filter not found');
      expect(await registry.changes(free)).to.deep.equal([]);
      const other = {};
      await registry.newLogFilter({}, other);
      await registry.close();
      const reopened = await open();
      expect(reopened.size).to.equal(1);
    });

    it('keeps a bounded buffer of pending transaction hashes, dropping the oldest', async () => {
      const registry = await open({ maxPendingHashes: 3 });
      const id = await registry.newPendingTransactionFilter();
      for (const n of [1, 2, 3, 4, 5]) registry.transactionAdded(`0x${n}`);
      expect(await registry.changes(id)).to.deep.equal(['0x3', '0x4', '0x5']);
      expect(await registry.changes(id)).to.deep.equal([]);
    });

    it('keeps unpolled pending transaction hashes across a restart', async () => {
      const first = await open();
      const id = await first.newPendingTransactionFilter();
      first.transactionAdded('0xaa');
      first.transactionAdded('0xbb');
      await first.close();
      const second = await open();
      expect(await second.changes(id)).to.deep.equal(['0xaa', '0xbb']);
      expect(await second.changes(id)).to.deep.equal([]);
    });

    it('refuses invalid criteria as eth_newFilter does', async () => {
      const registry = await open();
      await rejects(registry.newLogFilter({ fromBlock: '0x2', toBlock: '0x1' }), -32602, 'invalid block range params');
      await rejects(registry.newLogFilter({ blockHash: `0x${'00'.repeat(32)}`, fromBlock: '0x0' }), -32602, /cannot specify both BlockHash/);
      await rejects(registry.newLogFilter({ topics: [null, null, null, null, null] }), -32602, 'exceed max topics');
      await rejects(registry.newLogFilter({ blockHash: `0x${'ab'.repeat(32)}` }), -32000, 'unknown block');
      expect(registry.size).to.equal(0);
    });
  });
});
