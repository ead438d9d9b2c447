import { expect } from 'chai';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { CHAIN_ID, devAddress, devKey, GWEI, signTx, SINK, txHash } from '../../helpers/transactions.js';

const hex = (n: bigint | number) => `0x${n.toString(16)}`;
const ZERO_ADDRESS = `0x${'00'.repeat(20)}`;
const QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/;

describe('eth_getTransactionByHash', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode({ mining: false });
  });
  after(() => node.destroy());

  const get = async (hash: string) => node.call('eth_getTransactionByHash', [hash]);

  it('an unknown hash: null', async () => {
    expect(await get(`0x${'cd'.repeat(32)}`)).to.equal(null);
  });

  it('a pooled transaction (SPEC 2.6): null block members, incentiveAddress, fee cap as gasPrice', async () => {
    const raw = await signTx({ key: devKey(0), nonce: 0, value: 2n, maxFeePerGas: 15n * GWEI, maxPriorityFeePerGas: 3n * GWEI });
    await node.call('eth_sendRawTransaction', [raw]);
    const tx = (await get(txHash(raw)))!;
    expect(Object.keys(tx).sort()).to.deep.equal(
      ['accessList', 'blockHash', 'blockNumber', 'chainId', 'from', 'gas', 'gasPrice', 'hash', 'incentiveAddress', 'input', 'maxFeePerGas', 'maxPriorityFeePerGas', 'nonce', 'r', 's', 'to', 'transactionIndex', 'type', 'v', 'value', 'yParity'].sort(),
    );
    expect(tx).to.include({
      blockHash: null,
      blockNumber: null,
      transactionIndex: null,
      incentiveAddress: ZERO_ADDRESS,
      from: devAddress(0),
      to: SINK,
      hash: txHash(raw),
      value: '0x2',
      gasPrice: hex(15n * GWEI),
      maxFeePerGas: hex(15n * GWEI),
      maxPriorityFeePerGas: hex(3n * GWEI),
    });
  });

  it('once mined (SPEC 2.5): block members set, no incentiveAddress, gasPrice = the effective price', async () => {
    const hash = (await node.call('txpool_contentFrom', [devAddress(0)])).pending['0'].hash;
    await node.call('evm_mine', []);
    const block = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
    const tx = (await get(hash))!;
    expect(tx).to.include({ blockHash: block.hash, blockNumber: block.number, transactionIndex: '0x0' });
    expect(tx).to.not.have.property('incentiveAddress');
    expect(tx.gasPrice).to.equal(hex(BigInt(block.baseFeePerGas!) + 3n * GWEI));
  });

  describe('each type carries its own members', () => {
    const hashes: Record<string, string> = {};
    let authority: string;
    before(async () => {
      const key = devKey(1);
      const account = privateKeyToAccount(generatePrivateKey());
      authority = account.address;
      const auth = await account.signAuthorization({ chainId: CHAIN_ID, address: SINK, nonce: 0 });
      const raws = {
        legacy: await signTx({ key, nonce: 0, kind: 'legacy' }),
        eip155: await signTx({ key, nonce: 1, kind: 'eip155' }),
        eip2930: await signTx({ key, nonce: 2, kind: 'eip2930', gas: 30_000n, accessList: [{ address: SINK, storageKeys: [`0x${'01'.padStart(64, '0')}`] }] }),
        eip1559: await signTx({ key, nonce: 3 }),
        eip7702: await signTx({ key, nonce: 4, kind: 'eip7702', to: account.address, gas: 60_000n, authorizationList: [auth] }),
      };
      for (const [kind, raw] of Object.entries(raws)) hashes[kind] = await node.call('eth_sendRawTransaction', [raw]);
      await node.call('evm_mine', []);
    });

    it('legacy without EIP-155: type 0x0, v 27/28, no chainId, no yParity', async () => {
      const tx = (await get(hashes.legacy))!;
      expect(tx.type).to.equal('0x0');
      expect(['0x1b', '0x1c']).to.include(tx.v);
      expect(tx).to.not.have.property('chainId');
      expect(tx).to.not.have.property('yParity');
      expect(tx).to.not.have.property('maxFeePerGas');
    });

    it('legacy with EIP-155: v = chainId × 2 + 35/36, chainId', async () => {
      const tx = (await get(hashes.eip155))!;
      expect(tx).to.include({ type: '0x0', chainId: hex(CHAIN_ID) });
      expect([hex(CHAIN_ID * 2 + 35), hex(CHAIN_ID * 2 + 36)]).to.include(tx.v);
    });

    it('EIP-2930: the access list, chainId, yParity = v', async () => {
      const tx = (await get(hashes.eip2930))!;
      expect(tx).to.include({ type: '0x1', chainId: hex(CHAIN_ID), gasPrice: hex(10n * GWEI) });
      expect(tx.accessList).to.deep.equal([{ address: SINK, storageKeys: [`0x${'01'.padStart(64, '0')}`] }]);
      expect(tx.yParity).to.equal(tx.v);
    });

    it('EIP-1559: maxFeePerGas and maxPriorityFeePerGas', async () => {
      const tx = (await get(hashes.eip1559))!;
      expect(tx).to.include({ type: '0x2', maxFeePerGas: hex(10n * GWEI), maxPriorityFeePerGas: hex(GWEI) });
    });

    it('EIP-7702: the authorization list', async () => {
      const tx = (await get(hashes.eip7702))!;
      expect(tx.type).to.equal('0x4');
      expect(tx.to).to.equal(authority.toLowerCase());
      expect(tx.authorizationList).to.have.length(1);
      expect(tx.authorizationList![0]).to.include({ chainId: hex(CHAIN_ID), address: SINK, nonce: '0x0' });
    });

    it('r and s are quantities without leading zeros', async () => {
      for (const hash of Object.values(hashes)) {
        const tx = (await get(hash))!;
        expect(tx.r).to.match(QUANTITY);
        expect(tx.s).to.match(QUANTITY);
      }
    });
  });

  it('a replaced transaction is gone; its replacement is found', async () => {
    const old = await signTx({ key: devKey(2), nonce: 0, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI });
    const replacement = await signTx({ key: devKey(2), nonce: 0, maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: 2n * GWEI });
    await node.call('eth_sendRawTransaction', [old]);
    await node.call('eth_sendRawTransaction', [replacement]);
    expect(await get(txHash(old))).to.equal(null);
    expect((await get(txHash(replacement)))!.hash).to.equal(txHash(replacement));
  });
});
