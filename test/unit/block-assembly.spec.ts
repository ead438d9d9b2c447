// Block assembly on its own: a transaction that cannot run now must be told from one whose failure is a fault.
import { createTx, type TypedTransaction, type TypedTxData } from '@ethereumjs/tx';
import { bytesToHex, createAddressFromString, hexToBytes } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import { expect } from 'chai';
import type { Chain } from '../../src/chain/chain.js';
import { deriveAccounts, DEV_MNEMONIC } from '../../src/chain/dev-accounts.js';
import { assembleBlock } from '../../src/producer/block-assembly.js';
import { createChainVM } from '../../src/state/vm.js';
import type { Database } from '../../src/storage/database.js';
import type { PooledTx } from '../../src/txpool/types.js';
import { openMemoryChain } from '../helpers/memory-chain.js';

const GWEI = 1_000_000_000n;
const accounts = deriveAccounts(DEV_MNEMONIC, 4);
const COINBASE = createAddressFromString(`0x${'00'.repeat(20)}`);

interface Logged {
  debug: string[];
  error: string[];
}

describe('block assembly', () => {
  let db: Database;
  let chain: Chain;

  beforeEach(async () => {
    ({ db, chain } = await openMemoryChain(accounts.map((a) => a.address)));
  });
  afterEach(() => db.close());

  /** A VM over a private copy of the head's state: nothing it runs reaches the chain. */
  async function scratchVM(): Promise<VM> {
    return createChainVM(chain, chain.nextCommon(), await chain.state.scratch(chain.head().header.stateRoot));
  }

  function signed(account: number, nonce: number, extra: Partial<TypedTxData> = {}): TypedTransaction {
    const data = { type: 2, nonce: BigInt(nonce), gasLimit: 21_000n, to: `0x${'de'.repeat(20)}`, value: 1n, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI, chainId: 31337n, ...extra } as TypedTxData;
    return createTx(data, { common: chain.nextCommon() }).sign(accounts[account].privateKey);
  }

  function pooled(tx: TypedTransaction, seq: number): PooledTx {
    const sender = tx.getSenderAddress();
    return { tx, hash: tx.hash(), hashHex: bytesToHex(tx.hash()), sender, senderHex: sender.toString(), raw: tx.serialize(), seq, nonce: tx.nonce };
  }

  function recorder(): { log: { debug(m: string): void; error(m: string): void }; logged: Logged } {
    const logged: Logged = { debug: [], error: [] };
    return { logged, log: { debug: (m) => logged.debug.push(m), error: (m) => logged.error.push(m) } };
  }

  const timestamp = () => chain.head().header.timestamp + 12n;

  it('lets a transaction the state no longer allows wait, with its sender’s later ones, and logs no fault', async () => {
    const { log, logged } = recorder();
    const ahead = pooled(signed(0, 1), 0);
    const after = pooled(signed(0, 2), 1);
    const other = pooled(signed(1, 0), 2);
    const built = await assembleBlock(await scratchVM(), chain.head(), timestamp(), [ahead, after, other], { coinbase: COINBASE, log });
    expect(built.included.map((p) => p.hashHex)).to.deep.equal([other.hashHex]);
    expect(logged.error).to.deep.equal([]);
    expect(logged.debug.join('\n')).to.include(`${ahead.hashHex} waits: its nonce is 1, the account's 0`);
  });

  it('logs a transaction that passes every check yet fails to run as a fault, and goes on', async () => {
    const { log, logged } = recorder();
    // A blob transaction without its blobs passes every check of state and room; the builder refuses it.
    const blobless = pooled(signed(0, 0, { type: 3, to: `0x${'de'.repeat(20)}`, maxFeePerBlobGas: GWEI, blobVersionedHashes: [hexToBytes(`0x01${'11'.repeat(31)}`)] } as Partial<TypedTxData>), 0);
    const fine = pooled(signed(1, 0), 1);
    const built = await assembleBlock(await scratchVM(), chain.head(), timestamp(), [blobless, fine], { coinbase: COINBASE, log });
    expect(built.included.map((p) => p.hashHex)).to.deep.equal([fine.hashHex]);
    expect(logged.error).to.have.length(1);
    expect(logged.error[0]).to.include(`transaction ${blobless.hashHex} failed to run in block 1`);
  });

});
