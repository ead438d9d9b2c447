// A chain over an in-memory LevelDB, for unit specs that drive the chain without a node.
import type { GethGenesis } from '@ethereumjs/common';
import { MemoryLevel } from 'memory-level';
import { Chain } from '../../src/chain/chain.js';
import { devGenesis } from '../../src/chain/dev-genesis.js';
import { DEFAULTS } from '../../src/config.js';
import { sectionsOf, type BinaryLevel, type Database } from '../../src/storage/database.js';

/** The dev chain funding `accounts` with 1,000 ETH each, plus whatever `alloc` adds (contracts, say). */
export async function openMemoryChain(accounts: string[], alloc: GethGenesis['alloc'] = {}): Promise<{ db: Database; chain: Chain }> {
  const level = new MemoryLevel<Uint8Array, Uint8Array>({ keyEncoding: 'view', valueEncoding: 'view' }) as unknown as BinaryLevel;
  await level.open();
  const db = sectionsOf(level);
  const spec = devGenesis({ chainId: 31337n, hardfork: DEFAULTS.hardfork, accounts, balance: 10n ** 21n, gasLimit: 30_000_000n });
  Object.assign(spec.alloc, alloc);
  return { db, chain: await Chain.open(db, spec) };
}
