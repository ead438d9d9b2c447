import { RLP } from '@ethereumjs/rlp';
import { Capability } from '@ethereumjs/tx';
import { bytesToHex, SECP256K1_ORDER } from '@ethereumjs/util';
import { expect } from 'chai';
import { getBytes, Transaction } from 'ethers';

import type { PooledTx } from '../../src/txpool/types.js';
import {
  addr,
  assertConsistent,
  CHAIN_ID,
  ETH,
  GWEI,
  harness,
  rejects,
  sign,
  SINK,
  tx1559,
  wallets,
} from '../helpers/pool-fixtures.js';

/** Re-encode a typed tx with one RLP field changed (the signature no longer matches). */
function tamper(raw: Uint8Array, edit: (fields: Uint8Array[]) => void): Uint8Array {
  const fields = RLP.decode(raw.subarray(1)) as Uint8Array[];
  edit(fields);
  const body = RLP.encode(fields);
  return Uint8Array.from([raw[0], ...body]);
}

const big = (n: bigint): Uint8Array => (n === 0n ? new Uint8Array() : getBytes('0x' + n.toString(16).padStart(2 * Math.ceil(n.toString(16).length / 2), '0')));

describe('txpool admission: transaction types', () => {
  it('admits a legacy transaction without EIP-155 (v = 27/28)', async () => {
    const { pool } = await harness();
    const raw = await sign(0, { type: 0, chainId: 0n });
    const ptx = await pool.add(raw);
    expect(ptx.tx.type).to.equal(0);
    expect([27n, 28n]).to.include(ptx.tx.v);
    expect(ptx.tx.supports(Capability.EIP155ReplayProtection)).to.equal(false);
    expect(ptx.senderHex).to.equal(addr(0));
  });

  it('admits a legacy EIP-155 transaction', async () => {
    const { pool } = await harness();
    const ptx = await pool.add(await sign(0, { type: 0 }));
    expect(ptx.tx.type).to.equal(0);
    expect(ptx.tx.v! >= CHAIN_ID * 2n + 35n).to.equal(true);
    expect(ptx.tx.supports(Capability.EIP155ReplayProtection)).to.equal(true);
  });

  it('admits an EIP-2930 transaction with an access list', async () => {
    const { pool } = await harness();
    const ptx = await pool.add(
      await sign(0, {
        type: 1,
        gasLimit: 30_000n,
        accessList: [{ address: SINK, storageKeys: ['0x' + '00'.repeat(32)] }],
      }),
    );
    expect(ptx.tx.type).to.equal(1);
  });

  it('admits an EIP-1559 transaction', async () => {
    const { pool } = await harness();
    const ptx = await pool.add(await tx1559(0, 0));
    expect(ptx.tx.type).to.equal(2);
  });

  it('admits an EIP-7702 transaction with an authorization list', async () => {
    const { pool } = await harness();
    const auth = wallets[1].authorizeSync({ address: SINK, nonce: 0, chainId: CHAIN_ID });
    const ptx = await pool.add(await sign(0, { type: 4, gasLimit: 60_000n, authorizationList: [auth] }));
    expect(ptx.tx.type).to.equal(4);
  });

  it('keeps the recovered sender, hash and raw bytes on the pooled tx', async () => {
    const { pool } = await harness();
    const raw = await tx1559(2, 0);
    const ptx = await pool.add(raw);
    expect(ptx.senderHex).to.equal(addr(2));
    expect(ptx.sender.toString()).to.equal(addr(2));
    expect(ptx.hashHex).to.equal(Transaction.from(bytesToHex(raw)).hash);
    expect(ptx.raw).to.deep.equal(raw);
    expect(ptx.nonce).to.equal(0n);
    expect(pool.get(ptx.hashHex.toUpperCase().replace('0X', '0x'))).to.equal(ptx);
  });

  it('notifies "added" listeners once per accepted transaction', async () => {
    const { pool } = await harness();
    const seen: PooledTx[] = [];
    const off = pool.on('added', (p) => seen.push(p));
    const a = await pool.add(await tx1559(0, 0));
    await rejects(pool.add(await tx1559(0, 0)), 'already known');
    off();
    await pool.add(await tx1559(0, 1));
    expect(seen).to.deep.equal([a]);
  });
});

describe('txpool admission: decoding and signature rules', () => {
  it('rejects a blob (type 3) transaction without its sidecar, as geth does', async () => {
    const { pool } = await harness();
    await rejects(pool.add(Uint8Array.of(0x03, 0xc0)), 'missing sidecar in blob transaction');
  });

  it('rejects an unknown envelope type as unsupported', async () => {
    const { pool } = await harness();
    await rejects(pool.add(Uint8Array.of(0x05, 0xc0)), 'transaction type not supported');
  });

  it('rejects undecodable bytes with -32602', async () => {
    const { pool } = await harness();
    await rejects(pool.add(Uint8Array.of(0xc3, 0x01)), /^invalid transaction: .+/, -32602);
    await rejects(pool.add(new Uint8Array()), 'invalid transaction: empty input', -32602);
  });

  it('rejects a typed transaction signed for another chain', async () => {
    const { pool } = await harness();
    await rejects(pool.add(await sign(0, { chainId: 1n })), 'invalid chain id for signer: have 1 want 31337');
  });

  it('rejects an EIP-155 legacy transaction signed for another chain', async () => {
    const { pool } = await harness();
    await rejects(pool.add(await sign(0, { type: 0, chainId: 5n })), 'invalid chain id for signer: have 5 want 31337');
  });

  it('rejects an unsigned transaction as invalid sender', async () => {
    const { pool } = await harness();
    const unsigned = Transaction.from({
      type: 2,
      chainId: CHAIN_ID,
      nonce: 0,
      to: SINK,
      gasLimit: 21_000n,
      maxFeePerGas: 2n * GWEI,
      maxPriorityFeePerGas: GWEI,
    }).unsignedSerialized;
    await rejects(pool.add(getBytes(unsigned)), 'invalid sender');
  });

  it('rejects a malleated (high-s) signature as invalid sender', async () => {
    const { pool } = await harness();
    const raw = tamper(await tx1559(0, 0), (f) => {
      const s = BigInt(bytesToHex(f[11]));
      f[11] = big(SECP256K1_ORDER - s);
      f[9] = f[9].length === 0 ? Uint8Array.of(1) : new Uint8Array();
    });
    await rejects(pool.add(raw), 'invalid sender');
  });

  it('rejects a signature that recovers no sender as invalid sender', async () => {
    const { pool } = await harness();
    const raw = tamper(await tx1559(0, 0), (f) => {
      f[10] = big(SECP256K1_ORDER + 1n); // r >= n
    });
    await rejects(pool.add(raw), 'invalid sender');
  });

  it('rejects a set-code transaction with an empty authorization list', async () => {
    const { pool } = await harness();
    await rejects(
      pool.add(await sign(0, { type: 4, gasLimit: 60_000n, authorizationList: [] })),
      'set code tx must have at least one authorization tuple',
    );
  });

  it('rejects a transaction larger than maxTxBytes', async () => {
    const { pool } = await harness({ maxTxBytes: 200 });
    const raw = await sign(0, { data: '0x' + '11'.repeat(300), gasLimit: 100_000n });
    await rejects(pool.add(raw), `oversized data: transaction size ${raw.length}, limit 200`);
  });

  it('rejects a creation transaction whose initcode exceeds the hardfork limit', async () => {
    const { pool } = await harness();
    const raw = await sign(0, { to: null, data: '0x' + '00'.repeat(49_153), gasLimit: 1_000_000n });
    await rejects(pool.add(raw), 'max initcode size exceeded: code size 49153, limit 49152');
  });

  it('accepts a creation transaction at exactly the initcode limit', async () => {
    const { pool } = await harness();
    const ptx = await pool.add(await sign(0, { to: null, data: '0x' + '00'.repeat(49_152), gasLimit: 1_000_000n }));
    expect(ptx.tx.to).to.equal(undefined);
  });

  it('rejects a gas limit above the Osaka per-transaction cap (EIP-7825)', async () => {
    const { pool } = await harness();
    await rejects(
      pool.add(await sign(0, { gasLimit: 20_000_000n })),
      'transaction gas limit too high (cap: 16777216, tx: 20000000)',
    );
  });

  it('rejects a gas limit above the block gas limit', async () => {
    const { pool, env } = await harness();
    env.gasLimit = 1_000_000n;
    await rejects(pool.add(await sign(0, { gasLimit: 2_000_000n })), 'exceeds block gas limit');
  });

  it('rejects a priority fee above the fee cap', async () => {
    const { pool } = await harness();
    const raw = tamper(await tx1559(0, 0), (f) => {
      f[2] = big(3n * GWEI); // maxPriorityFeePerGas > maxFeePerGas (2 gwei)
    });
    await rejects(pool.add(raw), 'max priority fee per gas higher than max fee per gas');
  });
});

describe('txpool admission: gas, price and state rules', () => {
  it('rejects gas below the intrinsic cost', async () => {
    const { pool } = await harness();
    await rejects(pool.add(await sign(0, { gasLimit: 20_000n })), 'intrinsic gas too low: gas 20000, minimum needed 21000');
  });

  it('counts calldata and access lists in the intrinsic cost', async () => {
    const { pool } = await harness();
    const raw = await sign(0, {
      type: 1,
      gasLimit: 21_000n,
      accessList: [{ address: SINK, storageKeys: ['0x' + '00'.repeat(32)] }],
    });
    await rejects(pool.add(raw), 'intrinsic gas too low: gas 21000, minimum needed 25300');
  });

  it('rejects gas below the EIP-7623 calldata floor', async () => {
    const { pool } = await harness();
    // 100 non-zero bytes: intrinsic 21000 + 1600 = 22600, floor 21000 + 10 * 400 = 25000
    const raw = await sign(0, { data: '0x' + '11'.repeat(100), gasLimit: 23_000n });
    await rejects(pool.add(raw), 'insufficient gas for floor data gas cost: gas 23000, minimum needed 25000');
  });

  it('rejects a fee cap below the next block base fee', async () => {
    const { pool } = await harness();
    await rejects(
      pool.add(await tx1559(0, 0, GWEI / 10n, GWEI / 2n)),
      `max fee per gas less than block base fee: address ${wallets[0].address}, maxFeePerGas: 500000000, baseFee: 1000000000`,
    );
  });

  it('rejects a legacy gas price below the next block base fee', async () => {
    const { pool } = await harness();
    await rejects(
      pool.add(await sign(0, { type: 0, gasPrice: GWEI - 1n })),
      `max fee per gas less than block base fee: address ${wallets[0].address}, maxFeePerGas: 999999999, baseFee: 1000000000`,
    );
  });

  it('rejects a fee cap below minGasPrice as underpriced', async () => {
    const { pool } = await harness({ minGasPrice: 5n * GWEI });
    await rejects(
      pool.add(await tx1559(0, 0)),
      'transaction underpriced: gas fee cap 2000000000, minimum needed 5000000000',
    );
  });

  it('rejects a nonce below the account nonce', async () => {
    const { pool, env } = await harness();
    env.set(0, { nonce: 3n });
    await rejects(pool.add(await tx1559(0, 1)), 'nonce too low: next nonce 3, tx nonce 1');
  });

  it('rejects a transaction whose gas * feeCap + value exceeds the balance', async () => {
    const { pool, env } = await harness();
    env.set(0, { balance: 21_000n * GWEI });
    // cost = 21000 * 2 gwei + 0
    await rejects(
      pool.add(await tx1559(0, 0)),
      'insufficient funds for gas * price + value: balance 21000000000000, tx cost 42000000000000, overshot 21000000000000',
    );
  });

  it('counts value in the cost', async () => {
    const { pool, env } = await harness();
    env.set(0, { balance: ETH });
    await rejects(
      pool.add(await sign(0, { value: ETH })),
      'insufficient funds for gas * price + value: balance 1000000000000000000, tx cost 1000042000000000000, overshot 42000000000000',
    );
  });

  it('rejects a transaction the balance cannot cover on top of the pending ones', async () => {
    const { pool, env } = await harness();
    env.set(0, { balance: 50_000n * GWEI });
    await pool.add(await tx1559(0, 0));
    await rejects(
      pool.add(await tx1559(0, 1)),
      'insufficient funds for gas * price + value: balance 50000000000000, queued cost 42000000000000, tx cost 42000000000000, overshot 34000000000000',
    );
  });

  it('rejects a transaction already in the pool', async () => {
    const { pool } = await harness();
    const raw = await tx1559(0, 0);
    await pool.add(raw);
    await rejects(pool.add(raw), 'already known');
  });

  it('stores nothing on rejection', async () => {
    const { pool, db, env } = await harness();
    env.set(0, { nonce: 5n });
    await rejects(pool.add(await tx1559(0, 0)), 'nonce too low: next nonce 5, tx nonce 0');
    await rejects(pool.add(await sign(1, { gasLimit: 1n })), 'intrinsic gas too low: gas 1, minimum needed 21000');
    expect(pool.size()).to.deep.equal({ pending: 0, queued: 0, total: 0, limit: 10_000 });
    expect(await db.pool.keys().all()).to.have.length(0);
    assertConsistent(pool);
  });
});

describe('txpool admission: listeners', () => {
  it('admits a transaction when a listener throws, and reports the listener’s error', async () => {
    const reported: unknown[] = [];
    const { pool } = await harness({ onListenerError: (error) => reported.push(error) });
    const fault = new Error('listener fault');
    pool.on('added', () => {
      throw fault;
    });
    const ptx = await pool.add(await tx1559(0, 0));
    expect(pool.has(ptx.hashHex)).to.equal(true);
    expect(reported).to.deep.equal([fault]);
  });
});
