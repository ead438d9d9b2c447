// A remote block is checked by its hash, not by Ethereum's consensus rules for its fork: chains people
// fork keep fields of their own in headers of a post-merge shape (BSC's difficulty of 2, Arbitrum's 1
// and its nonce), which the library refuses as a PoS block unless told not to check.
import { createBlock } from '@ethereumjs/block';
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { bytesToHex } from '@ethereumjs/util';
import { expect } from 'chai';
import { toRpcBlock } from '../../src/format/block.js';
import { blockFromRemote, type RemoteBlockJson } from '../../src/fork/remote-shapes.js';

const common = createCustomCommon({ chainId: 56 }, Mainnet, { hardfork: Hardfork.Cancun });

/** A Cancun-shaped block as such a chain has it: a difficulty, a nonce and a long extraData (validator signatures). */
function foreignBlock() {
  const header = {
    number: 40_000_000n,
    timestamp: 1_700_000_000n,
    difficulty: 2n,
    nonce: new Uint8Array(8).fill(1),
    extraData: new Uint8Array(97).fill(7),
    gasLimit: 140_000_000n,
    baseFeePerGas: 0n,
  };
  return createBlock({ header, withdrawals: [] }, { common, skipConsensusFormatValidation: true });
}

describe('remote blocks of chains with consensus fields of their own', () => {
  it('reads a post-merge-shaped block with a difficulty, a nonce and a long extraData, checked by its hash', () => {
    const block = foreignBlock();
    const json = toRpcBlock(block, 80_000_000n, []) as unknown as RemoteBlockJson;
    const read = blockFromRemote(json, () => common);
    expect(bytesToHex(read.hash())).to.equal(bytesToHex(block.hash()));
    expect(read.header.difficulty).to.equal(2n);
  });

  it('still refuses such a block whose fields do not hash to the hash it names', () => {
    const json = { ...(toRpcBlock(foreignBlock(), 0n, []) as unknown as RemoteBlockJson), difficulty: '0x3' } as RemoteBlockJson;
    expect(() => blockFromRemote(json, () => common)).to.throw(/hashes to/);
  });
});
