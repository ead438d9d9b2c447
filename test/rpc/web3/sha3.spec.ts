import { expect } from 'chai';
import { keccak256, toHex } from 'viem';
import { startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';

describe('web3_sha3', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('answers keccak256 of the bytes', async () => {
    expect(await node.call('web3_sha3', ['0x68656c6c6f'])).to.equal(keccak256(toHex('hello')));
    expect(await node.call('web3_sha3', ['0x'])).to.equal('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  });

  it('refuses text that is not hex with -32602, as geth and anvil do', async () => {
    await expectRpcError(node.call('web3_sha3', ['hello' as never]), -32602, /data/);
  });
});
