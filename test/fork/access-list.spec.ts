// Forking: what a call's or a transaction's access list names is fetched before it runs, in one round
// trip with its target, where the EVM would fetch each slot as it met it, one round trip after another.
import { expect } from 'chai';
import { encodeAbiParameters, encodeFunctionData, keccak256, toHex, type Abi, type Hex } from 'viem';
import { contracts } from '../helpers/contracts.js';
import { direct, forkFixture } from '../helpers/fork-remote.js';
import { DEV_ADDRESSES } from '../helpers/node.js';

const abi = contracts().Token.abi as unknown as Abi;
/** The token's balanceOf mapping is its fourth slot (name, symbol, totalSupply before it). */
const balanceSlot = (holder: Hex) => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder, 3n]));
const transfer = (to: Hex) => encodeFunctionData({ abi, functionName: 'transfer', args: [to, 1n] });

describe('forking: access lists fetched ahead', () => {
  const f = forkFixture({ blocks: 2, perBlock: 4 });

  it('runs a call with an access list on one round trip: its sender, its target with its code, and the listed slots as values', async () => {
    const [from, to] = f.remote.holders;
    const call = { from, to: f.remote.token, data: transfer(to), accessList: [{ address: f.remote.token, storageKeys: [balanceSlot(from), balanceSlot(to)] }] };
    f.proxy.reset();
    expect(await f.fork.call('eth_call', [call, 'latest'])).to.equal(await direct(f.remote, 'eth_call', [call, toHex(f.remote.forkBlock)]));
    const counts = f.proxy.reset();
    expect(counts.http).to.equal(1);
    expect(counts.calls).to.deep.equal({ eth_getProof: 2, eth_getCode: 1, eth_getStorageValues: 1 });
  });

  it('runs the same call without an access list on a round trip per slot it reads after the first', async () => {
    const [, , from, to] = f.remote.holders;
    const call = { from, to: f.remote.token, data: transfer(to) };
    f.proxy.reset();
    expect(await f.fork.call('eth_call', [call, 'latest'])).to.equal(await direct(f.remote, 'eth_call', [call, toHex(f.remote.forkBlock)]));
    // The token's account and code are the node's by now: each balance is a round trip of its own.
    expect(f.proxy.reset().http).to.equal(3);
  });

  it('mines a transaction with an access list after one round trip for the block: the listed slots as proofs, which its writes need', async () => {
    const [, , , , from, to] = f.remote.holders;
    await f.fork.call('anvil_impersonateAccount', [from]);
    await f.fork.call('evm_mine', []);
    const before = await f.fork.call('eth_getTransactionCount', [from, 'latest']);
    f.proxy.reset();
    const hash = await f.fork.call('eth_sendTransaction', [
      { from, to: f.remote.token, data: transfer(to), gas: '0x30000', accessList: [{ address: f.remote.token, storageKeys: [balanceSlot(from), balanceSlot(to)] }] },
    ]);
    expect((await f.fork.call('eth_getTransactionReceipt', [hash]))?.status).to.equal('0x1');
    expect(before).to.equal('0x0');
    // The sender was read before (its nonce); the block asks for the token's slots in one proof.
    const counts = f.proxy.reset();
    expect(counts.http).to.equal(1);
    expect(counts.calls).to.deep.equal({ eth_getProof: 1 });
    const balanceOf = (holder: Hex) => f.fork.call('eth_call', [{ to: f.remote.token, data: encodeFunctionData({ abi, functionName: 'balanceOf', args: [holder] }) }, 'latest']);
    const remoteBalanceOf = (holder: Hex) => direct<Hex>(f.remote, 'eth_call', [{ to: f.remote.token, data: encodeFunctionData({ abi, functionName: 'balanceOf', args: [holder] }) }, 'latest']);
    expect(BigInt(await balanceOf(to))).to.equal(BigInt(await remoteBalanceOf(to)) + 1n);
    expect(BigInt(await balanceOf(from))).to.equal(BigInt(await remoteBalanceOf(from)) - 1n);
  });

  it('mines a block after one round trip for all its transactions’ recipients, where each transaction would fetch its own in turn', async () => {
    const recipients = f.remote.holders.slice(5, 8);
    await f.fork.call('evm_setAutomine', [false]);
    try {
      const hashes = [];
      for (const [i, to] of recipients.entries()) hashes.push(await f.fork.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[i], to, value: '0x1', gas: '0x5208' }]));
      f.proxy.reset();
      await f.fork.call('evm_mine', []);
      for (const hash of hashes) expect((await f.fork.call('eth_getTransactionReceipt', [hash]))?.status).to.equal('0x1');
      const counts = f.proxy.reset();
      expect(counts.http).to.equal(1);
      expect(counts.calls).to.deep.equal({ eth_getProof: 3, eth_getCode: 3 });
    } finally {
      await f.fork.call('evm_setAutomine', [true]);
    }
    for (const to of recipients) expect(BigInt(await f.fork.call('eth_getBalance', [to, 'latest']))).to.equal(BigInt(await direct<Hex>(f.remote, 'eth_getBalance', [to, 'latest'])) + 1n);
  });
});
