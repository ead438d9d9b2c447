import { RLP } from '@ethereumjs/rlp';
import { isBlob4844Tx } from '@ethereumjs/tx';
import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { commonFromGenesis, type GethGenesis } from '../../src/chain/genesis.js';
import { toRpcPoolTransaction } from '../../src/format/transaction.js';
import { decodeTx } from '../../src/txpool/decode.js';
import { maxCost } from '../../src/fees/fees.js';
import { FakeEnv, harness, rejects, reopen } from '../helpers/pool-fixtures.js';

function fixtures(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'test', 'fixtures', 'execution-apis', 'genesis.json'))) {
    if (dirname(dir) === dir) throw new Error('cannot find test/fixtures/execution-apis');
    dir = dirname(dir);
  }
  return join(dir, 'test', 'fixtures', 'execution-apis');
}

const FIXTURES = fixtures();
const genesis = JSON.parse(readFileSync(join(FIXTURES, 'genesis.json'), 'utf8')) as GethGenesis;
/** The blob transaction geth accepted in execution-apis (Osaka network form: one blob, 128 cell proofs). */
const BLOB_TX = hexToBytes(
  (JSON.parse(readFileSync(join(FIXTURES, 'eth_sendRawTransaction', 'send-blob-tx.io'), 'utf8').split('\n').find((l) => l.startsWith('>>'))!.slice(3)) as { params: string[] })
    .params[0] as PrefixedHexString,
);
const BLOB_TX_HASH = '0x05d85f6a761cac82cfdf06dd168952838ac452b10641aabccdfdad46e03d2f0b';
const G1_GENERATOR = '0x97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb';
const SENDER = '0x1f4924b14f34e24159387c0a4cdbaa32f3ddb0cf';

/** The pool's view of the execution-apis chain after its last block (bpo2: Osaka rules, KZG in the Common). */
class TestChainEnv extends FakeEnv {
  override readonly common = (() => {
    const common = commonFromGenesis(genesis);
    common.setHardforkBy({ blockNumber: 55n, timestamp: 10_000n });
    return common;
  })();
  override baseFee = 1n;
}

function withSidecar(edit: (fields: unknown[]) => void): Uint8Array {
  const fields = RLP.decode(BLOB_TX.subarray(1)) as unknown[];
  edit(fields);
  return Uint8Array.from([0x03, ...RLP.encode(fields as never)]);
}

describe('txpool admission: blob transactions', function () {
  this.timeout(60_000);

  it('admits a blob transaction in its network form, its cell proofs verified, and keeps it across a restart', async () => {
    const env = new TestChainEnv();
    const h = await harness({}, env);
    env.accounts.set(SENDER, { nonce: 0n, balance: 10n ** 24n });
    const ptx = await h.pool.add(BLOB_TX);
    expect(ptx.hashHex).to.equal(BLOB_TX_HASH);
    expect(ptx.senderHex).to.equal(SENDER);
    expect(isBlob4844Tx(ptx.tx) && ptx.tx.blobVersionedHashes.length).to.equal(1);
    const rpc = toRpcPoolTransaction(ptx.tx, ptx.sender) as unknown as Record<string, unknown>;
    expect(rpc).to.include({ type: '0x3', hash: BLOB_TX_HASH });
    expect(rpc.blobVersionedHashes).to.have.length(1);
    const again = await reopen(h);
    expect(again.get(BLOB_TX_HASH)?.raw).to.deep.equal(BLOB_TX);
  });

  it('counts the blob fee in the cost the balance must cover', async () => {
    const env = new TestChainEnv();
    const { pool } = await harness({}, env);
    const decoded = decodeTx(BLOB_TX, { common: env.common });
    if (!isBlob4844Tx(decoded)) throw new Error('not a blob tx');
    const withoutBlobs = decoded.gasLimit * decoded.maxFeePerGas + decoded.value;
    expect(maxCost(decoded)).to.equal(withoutBlobs + 131_072n * decoded.maxFeePerBlobGas);
    env.accounts.set(SENDER, { nonce: 0n, balance: withoutBlobs });
    await rejects(pool.add(BLOB_TX), /^insufficient funds for gas \* price \+ value/);
  });

  it('rejects a sidecar whose cell proof does not verify', async () => {
    const env = new TestChainEnv();
    const { pool } = await harness({}, env);
    env.accounts.set(SENDER, { nonce: 0n, balance: 10n ** 24n });
    // The blob is all zeros, so every cell proof is the point at infinity; put the G1 generator instead.
    const raw = withSidecar((fields) => {
      (fields[4] as Uint8Array[])[0] = hexToBytes(G1_GENERATOR);
    });
    await rejects(pool.add(raw), /^invalid blobs: KZG/);
  });

  it('rejects a blob whose commitment does not match the versioned hash', async () => {
    const env = new TestChainEnv();
    const { pool } = await harness({}, env);
    env.accounts.set(SENDER, { nonce: 0n, balance: 10n ** 24n });
    const raw = withSidecar((fields) => {
      const blobs = fields[2] as Uint8Array[];
      blobs[0] = Uint8Array.from(blobs[0], (b, i) => (i === 100 ? b ^ 1 : b));
    });
    await rejects(pool.add(raw), /^invalid blobs: /);
  });
});
