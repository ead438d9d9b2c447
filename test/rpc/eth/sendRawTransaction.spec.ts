import { expect } from 'chai';
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { toChecksumAddress } from '@ethereumjs/util';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import {
  CHAIN_ID,
  decodeFields,
  devAddress,
  devKey,
  encodeFields,
  expectRpcError,
  GWEI,
  signTx,
  signTypedFields,
  SINK,
  txHash,
} from '../../helpers/transactions.js';

const INVALID_PARAMS = -32602;
const SERVER = -32000;
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe('eth_sendRawTransaction', () => {
  // Manual mining: accepted transactions stay in the pool where the tests can see them.
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ mining: false });
  });
  after(() => node.destroy());

  const send = (raw: string) => node.call('eth_sendRawTransaction', [raw]);
  const status = () => node.call('txpool_status', []);
  const nextBaseFee = async () => BigInt((await node.call('eth_getBlockByNumber', ['pending', false]))!.baseFeePerGas!);

  describe('accepts', () => {
    it('answers keccak256 of the submitted bytes, and the pool holds the transaction', async () => {
      const raw = await signTx({ key: devKey(0), nonce: 0 });
      expect(await send(raw)).to.equal(txHash(raw));
      const tx = await node.call('eth_getTransactionByHash', [txHash(raw)]);
      expect(tx).to.include({ hash: txHash(raw), from: devAddress(0), blockHash: null });
    });

    it('every transaction type: legacy, EIP-155, EIP-2930, EIP-1559, EIP-7702; each mined with its type', async () => {
      const key = devKey(1);
      const authority = privateKeyToAccount(generatePrivateKey());
      const authorization = await authority.signAuthorization({ chainId: CHAIN_ID, address: SINK, nonce: 0 });
      const raws = [
        await signTx({ key, nonce: 0, kind: 'legacy' }),
        await signTx({ key, nonce: 1, kind: 'eip155' }),
        await signTx({ key, nonce: 2, kind: 'eip2930', accessList: [{ address: SINK, storageKeys: [] }], gas: 30_000n }),
        await signTx({ key, nonce: 3, kind: 'eip1559' }),
        await signTx({ key, nonce: 4, kind: 'eip7702', to: authority.address, gas: 60_000n, authorizationList: [authorization] }),
      ];
      for (const raw of raws) expect(await send(raw)).to.equal(txHash(raw));
      await node.call('evm_mine', []);
      const types: string[] = [];
      for (const raw of raws) {
        const receipt = (await node.call('eth_getTransactionReceipt', [txHash(raw)]))!;
        expect(receipt.status, `status of type ${receipt.type}`).to.equal('0x1');
        types.push(receipt.type);
      }
      expect(types).to.deep.equal(['0x0', '0x0', '0x1', '0x2', '0x4']);
      expect(await node.call('eth_getCode', [authority.address, 'latest'])).to.equal(`0xef0100${SINK.slice(2)}`);
    });

    it('a transaction beyond a nonce gap (it waits in the pool as queued)', async () => {
      const raw = await signTx({ key: devKey(2), nonce: 5 });
      expect(await send(raw)).to.equal(txHash(raw));
      expect((await node.call('txpool_contentFrom', [devAddress(2)])).queued).to.have.key('5');
    });
  });

  describe('rejects, storing nothing', () => {
    /** Sends `raw`, expects the error, and checks the pool neither grew nor learnt the hash. */
    async function rejects(raw: string, code: number, message: string | RegExp) {
      const before = await status();
      const error = await expectRpcError(send(raw), code, message);
      expect(await status()).to.deep.equal(before);
      expect(await node.call('eth_getTransactionByHash', [txHash(raw as `0x${string}`)])).to.equal(null);
      return error;
    }

    it('undecodable bytes (a truncated RLP list): -32602', async () => {
      await expectRpcError(send('0xf8ff0102'), INVALID_PARAMS, /^invalid transaction/);
    });

    it('an RLP list that is no transaction: -32602', async () => {
      await expectRpcError(send('0xc3010203'), INVALID_PARAMS, /^invalid transaction/);
    });

    it('a known type whose payload is no transaction (0x02 ‖ empty list): -32602', async () => {
      await expectRpcError(send('0x02c0'), INVALID_PARAMS, /^invalid transaction/);
    });

    it('a first byte below 0x7f names a typed envelope, as in geth: 0x12… is "transaction type not supported"', async () => {
      await expectRpcError(send('0x1234'), SERVER, 'transaction type not supported');
    });

    it('empty bytes: -32602', async () => {
      await expectRpcError(send('0x'), INVALID_PARAMS, /^invalid transaction/);
    });

    it('a valid transaction with trailing garbage: -32602', async () => {
      const raw = await signTx({ key: devKey(3), nonce: 0 });
      await rejects(`${raw}00`, INVALID_PARAMS, /^invalid transaction/);
    });

    it('a blob transaction (0x03) without its sidecar: "missing sidecar in blob transaction", as geth', async () => {
      const raw = signTypedFields(3, [BigInt(CHAIN_ID), 0n, GWEI, 10n * GWEI, 21_000n, SINK, 1n, '0x', [], GWEI, []]);
      await rejects(raw, SERVER, 'missing sidecar in blob transaction');
    });

    it('an unknown type (0x05): "transaction type not supported"', async () => {
      await rejects('0x05c0', SERVER, 'transaction type not supported');
    });

    it('a typed transaction for another chain: "invalid chain id for signer"', async () => {
      const raw = await signTx({ key: devKey(3), nonce: 0, chainId: 1 });
      await rejects(raw, SERVER, `invalid chain id for signer: have 1 want ${CHAIN_ID}`);
    });

    it('an EIP-155 legacy transaction for another chain: "invalid chain id for signer"', async () => {
      const raw = await signTx({ key: devKey(3), nonce: 0, kind: 'eip155', chainId: 5 });
      await rejects(raw, SERVER, `invalid chain id for signer: have 5 want ${CHAIN_ID}`);
    });

    it('a signature with a high s (malleable): "invalid sender"', async () => {
      const raw = await signTx({ key: devKey(3), nonce: 0 });
      const { type, fields } = decodeFields(raw);
      const s = BigInt(`0x${Buffer.from(fields[fields.length - 1]).toString('hex')}`);
      const yParity = fields[fields.length - 3].length === 0 ? 0n : 1n;
      const flipped = [...fields.slice(0, -3), 1n - yParity, fields[fields.length - 2], bigIntToUnpaddedBytes(SECP256K1_N - s)];
      await rejects(encodeFields(type, flipped), SERVER, 'invalid sender');
    });

    it('a signature that recovers no key (r = 0): "invalid sender"', async () => {
      const raw = await signTx({ key: devKey(3), nonce: 0 });
      const { type, fields } = decodeFields(raw);
      const broken = [...fields.slice(0, -2), new Uint8Array(), fields[fields.length - 1]];
      await rejects(encodeFields(type, broken), SERVER, 'invalid sender');
    });

    it('a nonce below the account nonce: "nonce too low"', async () => {
      const key = devKey(4);
      await send(await signTx({ key, nonce: 0 }));
      await node.call('evm_mine', []);
      await rejects(await signTx({ key, nonce: 0, value: 2n }), SERVER, 'nonce too low: next nonce 1, tx nonce 0');
    });

    it('gas below the intrinsic cost: "intrinsic gas too low"', async () => {
      await rejects(await signTx({ key: devKey(3), nonce: 0, gas: 20_999n }), SERVER, 'intrinsic gas too low: gas 20999, minimum needed 21000');
    });

    it('gas above the per-transaction cap of EIP-7825 (Osaka): "transaction gas limit too high"', async () => {
      const gas = (1n << 24n) + 1n;
      await rejects(await signTx({ key: devKey(3), nonce: 0, gas }), SERVER, `transaction gas limit too high (cap: ${1n << 24n}, tx: ${gas})`);
    });

    it('gas above the block gas limit: "exceeds block gas limit"', async () => {
      const small = await startTestNode({ mining: false, gasLimit: 10_000_000n, genesisFlagsGiven: true });
      try {
        const raw = await signTx({ key: devKey(3), nonce: 0, gas: 10_000_001n });
        await expectRpcError(small.call('eth_sendRawTransaction', [raw]), SERVER, 'exceeds block gas limit');
      } finally {
        await small.destroy();
      }
    });

    it('a fee cap below the next block base fee: "max fee per gas less than block base fee"', async () => {
      const baseFee = await nextBaseFee();
      const raw = await signTx({ key: devKey(3), nonce: 0, maxFeePerGas: baseFee - 1n, maxPriorityFeePerGas: 1n });
      await rejects(
        raw,
        SERVER,
        `max fee per gas less than block base fee: address ${toChecksumAddress(devAddress(3))}, maxFeePerGas: ${baseFee - 1n}, baseFee: ${baseFee}`,
      );
    });

    it('a legacy gas price below the next block base fee: "max fee per gas less than block base fee"', async () => {
      const baseFee = await nextBaseFee();
      await rejects(await signTx({ key: devKey(3), nonce: 0, kind: 'eip155', gasPrice: baseFee - 1n }), SERVER, /^max fee per gas less than block base fee/);
    });

    it('a tip above the fee cap: "max priority fee per gas higher than max fee per gas"', async () => {
      const raw = signTypedFields(2, [BigInt(CHAIN_ID), 0n, 20n * GWEI, 10n * GWEI, 21_000n, SINK, 1n, '0x', []], devKey(3));
      await rejects(raw, SERVER, 'max priority fee per gas higher than max fee per gas');
    });

    it('a set-code transaction without authorizations: "set code tx must have at least one authorization tuple"', async () => {
      const raw = signTypedFields(4, [BigInt(CHAIN_ID), 0n, GWEI, 10n * GWEI, 50_000n, SINK, 0n, '0x', [], []], devKey(3));
      await rejects(raw, SERVER, 'set code tx must have at least one authorization tuple');
    });

    it('a sender without the funds for gas × price + value: "insufficient funds for gas * price + value"', async () => {
      const raw = await signTx({ key: generatePrivateKey(), nonce: 0 });
      const cost = 21_000n * 10n * GWEI + 1n;
      await rejects(raw, SERVER, `insufficient funds for gas * price + value: balance 0, tx cost ${cost}, overshot ${cost}`);
    });

    it('a value above the balance: "insufficient funds for gas * price + value"', async () => {
      const raw = await signTx({ key: devKey(3), nonce: 0, value: 10n ** 30n });
      await rejects(raw, SERVER, /^insufficient funds for gas \* price \+ value: balance \d+, tx cost \d+, overshot \d+$/);
    });

    it('the same transaction twice: "already known"', async () => {
      const raw = await signTx({ key: devKey(5), nonce: 0 });
      await send(raw);
      const before = await status();
      await expectRpcError(send(raw), SERVER, 'already known');
      expect(await status()).to.deep.equal(before);
    });

    it('a replacement with less than 10% more on the fee cap and the tip: "replacement transaction underpriced"', async () => {
      const key = devKey(6);
      await send(await signTx({ key, nonce: 0, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI }));
      await rejects(await signTx({ key, nonce: 0, maxFeePerGas: 10n * GWEI + GWEI / 2n, maxPriorityFeePerGas: GWEI + GWEI / 20n }), SERVER, 'replacement transaction underpriced');
    });

    it('a replacement bumping only the fee cap: "replacement transaction underpriced"', async () => {
      const key = devKey(7);
      await send(await signTx({ key, nonce: 0, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI }));
      await rejects(await signTx({ key, nonce: 0, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: GWEI }), SERVER, 'replacement transaction underpriced');
    });

    it('a replacement bumping only the tip: "replacement transaction underpriced"', async () => {
      const key = devKey(8);
      await send(await signTx({ key, nonce: 0, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI }));
      await rejects(await signTx({ key, nonce: 0, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: 2n * GWEI }), SERVER, 'replacement transaction underpriced');
    });

    it('a transaction larger than 128 KiB: "oversized data"', async () => {
      const data = `0x${'01'.repeat(128 * 1024)}` as const;
      const raw = await signTx({ key: devKey(3), nonce: 0, gas: 16_000_000n, data });
      const size = (raw.length - 2) / 2;
      await rejects(raw, SERVER, `oversized data: transaction size ${size}, limit ${128 * 1024}`);
    });

    it('a transaction that does not pay more than the cheapest when the pool is full: "txpool is full"', async () => {
      const full = await startTestNode({ mining: false, txpoolLimit: 1 });
      try {
        await full.call('eth_sendRawTransaction', [await signTx({ key: devKey(0), nonce: 0 })]);
        const raw = await signTx({ key: devKey(1), nonce: 0 });
        await expectRpcError(full.call('eth_sendRawTransaction', [raw]), SERVER, 'txpool is full');
        expect((await full.call('txpool_content', [])).txCount).to.equal(1);
      } finally {
        await full.destroy();
      }
    });
  });

  describe('with automine', () => {
    let auto: TestNode;
    before(async () => {
      auto = await startTestNode();
    });
    after(() => auto.destroy());

    it('answers once the transaction is mined: the receipt is there at once', async () => {
      const raw = await signTx({ key: devKey(0), nonce: 0 });
      const hash = await auto.call('eth_sendRawTransaction', [raw]);
      const receipt = await auto.call('eth_getTransactionReceipt', [hash]);
      expect(receipt).to.not.equal(null);
      expect(receipt!.status).to.equal('0x1');
      expect(await auto.call('eth_blockNumber', [])).to.equal('0x1');
    });

    it('answers a transaction behind a nonce gap at once, leaving it queued', async () => {
      const raw = await signTx({ key: devKey(1), nonce: 3 });
      const hash = await auto.call('eth_sendRawTransaction', [raw]);
      expect(await auto.call('eth_getTransactionReceipt', [hash])).to.equal(null);
      expect((await auto.call('txpool_status', [])).queued).to.equal('0x1');
    });

    it('mines the queued transactions once the gap fills', async () => {
      const key = devKey(1);
      for (const nonce of [0, 1, 2]) await auto.call('eth_sendRawTransaction', [await signTx({ key, nonce })]);
      expect(await auto.call('txpool_status', [])).to.deep.equal({ pending: '0x0', queued: '0x0' });
      expect(await auto.call('eth_getTransactionCount', [devAddress(1), 'latest'])).to.equal('0x4');
    });
  });
});
