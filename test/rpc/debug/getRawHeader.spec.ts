import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { expect } from 'chai';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { startTestNode, type TestNode } from '../../helpers/node.js';

describe('debug_getRawHeader', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
    await node.call('evm_mine', []);
  });
  after(() => node.destroy());

  it('the RLP header whose keccak256 is the block hash', async () => {
    const block = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
    const raw = (await node.call('debug_getRawHeader', ['latest']))!;
    expect(bytesToHex(keccak256(hexToBytes(raw as `0x${string}`)))).to.equal(block.hash);
    const fields = RLP.decode(hexToBytes(raw as `0x${string}`)) as Uint8Array[];
    expect(bytesToHex(fields[0])).to.equal(block.parentHash);
    expect(bytesToHex(fields[3])).to.equal(block.stateRoot);
  });

  it('takes a number, a hash and an EIP-1898 object', async () => {
    const block = (await node.call('eth_getBlockByNumber', ['0x1', false]))!;
    const raw = await node.call('debug_getRawHeader', ['0x1']);
    expect(await node.call('debug_getRawHeader', [block.hash])).to.equal(raw);
    expect(await node.call('debug_getRawHeader', [{ blockHash: block.hash }])).to.equal(raw);
  });

  it('an unknown block: null', async () => {
    expect(await node.call('debug_getRawHeader', ['0xffff'])).to.equal(null);
  });
});
