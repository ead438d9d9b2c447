import { expect } from 'chai';
import { encodeAbiParameters, encodeErrorResult, encodeFunctionData, decodeFunctionResult, type Abi } from 'viem';
import type { StateOverride } from '../../../generated/types.js';
import { contracts, deployContract } from '../../helpers/contracts.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';

const ZERO_ADDRESS = `0x${'00'.repeat(20)}`;
const SINK_ADDRESS = '0x000000000000000000000000000000000000dEaD';
/** An account that holds nothing (checksummed, as geth names it in messages). */
const STRANGER = '0x1111111111111111111111111111111111111111';
const ERROR_STRING_ABI = [{ type: 'error', name: 'Error', inputs: [{ type: 'string', name: 'message' }] }] as const;

describe('eth_call', () => {
  let node: TestNode;
  let storage: `0x${string}`;
  let reverter: `0x${string}`;
  const abi = (name: 'Storage' | 'Reverter') => contracts()[name].abi as unknown as Abi;
  const data = (name: 'Storage' | 'Reverter', functionName: string, args: unknown[] = []) => encodeFunctionData({ abi: abi(name), functionName, args });
  const word = (n: bigint) => encodeAbiParameters([{ type: 'uint256' }], [n]);

  before(async () => {
    node = await startTestNode();
    storage = await deployContract(node, 'Storage');
    reverter = await deployContract(node, 'Reverter');
  });
  after(() => node.destroy());

  const setValue = async (value: bigint) => {
    const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: storage, data: data('Storage', 'set', [value]) }]);
    return (await node.call('eth_getTransactionReceipt', [hash]))!;
  };

  it('answers the return data of a view function', async () => {
    await setValue(42n);
    expect(await node.call('eth_call', [{ to: storage, data: data('Storage', 'get') }, 'latest'])).to.equal(word(42n));
  });

  it('answers the same call asked again on one block from the state it runs on: after a state edit, a new block and a revert', async () => {
    const get = () => node.call('eth_call', [{ to: storage, data: data('Storage', 'get') }, 'latest']);
    await setValue(7n);
    const snapshot = await node.call('evm_snapshot', []);
    expect(await get()).to.equal(word(7n));
    expect(await get()).to.equal(word(7n));
    // The same block, its state edited: the next call sees the edit.
    await node.call('anvil_setStorageAt', [storage, '0x0', word(8n)]);
    expect(await get()).to.equal(word(8n));
    await setValue(9n);
    expect(await get()).to.equal(word(9n));
    await node.call('evm_revert', [snapshot]);
    expect(await get()).to.equal(word(7n));
    // The value the tests after this one read.
    await setValue(42n);
  });

  it('takes the call data as `input` as well as `data`', async () => {
    expect(await node.call('eth_call', [{ to: storage, input: data('Storage', 'get') }, 'latest'])).to.equal(word(42n));
  });

  it('defaults the block to latest', async () => {
    expect(await node.call('eth_call', [{ to: storage, data: data('Storage', 'get') }])).to.equal(word(42n));
  });

  it('persists nothing: a state-changing call leaves the state and the chain as they were', async () => {
    const number = await node.call('eth_blockNumber', []);
    expect(await node.call('eth_call', [{ from: DEV_ADDRESSES[0], to: storage, data: data('Storage', 'set', [7n]) }, 'latest'])).to.equal('0x');
    expect(await node.call('eth_call', [{ to: storage, data: data('Storage', 'get') }, 'latest'])).to.equal(word(42n));
    expect(await node.call('eth_blockNumber', [])).to.equal(number);
  });

  it('runs on the state of the block it names (a number, a hash, an EIP-1898 object)', async () => {
    const receipt = await setValue(43n);
    const before = `0x${(BigInt(receipt.blockNumber) - 1n).toString(16)}`;
    const parent = (await node.call('eth_getBlockByNumber', [before, false]))!;
    expect(await node.call('eth_call', [{ to: storage, data: data('Storage', 'get') }, before])).to.equal(word(42n));
    expect(await node.call('eth_call', [{ to: storage, data: data('Storage', 'get') }, parent.hash])).to.equal(word(42n));
    expect(await node.call('eth_call', [{ to: storage, data: data('Storage', 'get') }, { blockHash: parent.hash }])).to.equal(word(42n));
    expect(await node.call('eth_call', [{ to: storage, data: data('Storage', 'get') }, receipt.blockNumber])).to.equal(word(43n));
  });

  it('sees an empty account before the contract was deployed', async () => {
    expect(await node.call('eth_call', [{ to: storage, data: data('Storage', 'get') }, 'earliest'])).to.equal('0x');
  });

  it('runs as `from`, the zero address when absent', async () => {
    const who = (result: string) => decodeFunctionResult({ abi: abi('Storage'), functionName: 'whoami', data: result as `0x${string}` }) as readonly string[];
    const anonymous = await node.call('eth_call', [{ to: storage, data: data('Storage', 'whoami') }, 'latest']);
    expect(who(anonymous)[0]).to.equal(ZERO_ADDRESS);
    const named = await node.call('eth_call', [{ from: DEV_ADDRESSES[1], to: storage, data: data('Storage', 'whoami') }, 'latest']);
    expect(who(named)[0].toLowerCase()).to.equal(DEV_ADDRESSES[1]);
  });

  it('a revert with a reason: code 3, "execution reverted: <reason>", data = the revert bytes', async () => {
    const error = await expectRpcError(node.call('eth_call', [{ to: reverter, data: data('Reverter', 'failWithReason') }, 'latest']), 3, 'execution reverted: Reverter: no luck');
    expect(error.data).to.equal(encodeErrorResult({ abi: ERROR_STRING_ABI, errorName: 'Error', args: ['Reverter: no luck'] }));
  });

  it('a custom error: code 3, "execution reverted", data = selector and arguments', async () => {
    const error = await expectRpcError(
      node.call('eth_call', [{ from: DEV_ADDRESSES[0], to: reverter, data: data('Reverter', 'failWithCustomError') }, 'latest']),
      3,
      'execution reverted',
    );
    expect(error.data).to.equal(encodeErrorResult({ abi: abi('Reverter'), errorName: 'Unauthorized', args: [DEV_ADDRESSES[0], 42n] }));
  });

  it('a revert without data: code 3, "execution reverted", data 0x', async () => {
    const error = await expectRpcError(node.call('eth_call', [{ to: reverter, data: data('Reverter', 'failBare') }, 'latest']), 3, 'execution reverted');
    expect(error.data).to.equal('0x');
  });

  it('a panic: code 3 with the Panic(uint256) data', async () => {
    const error = await expectRpcError(node.call('eth_call', [{ to: reverter, data: data('Reverter', 'failWithPanic', [0n]) }, 'latest']), 3, /^execution reverted/);
    expect(error.data).to.equal(`0x4e487b71${word(0x12n).slice(2)}`);
  });

  it('a call that runs out of the gas it was given: -32000', async () => {
    await expectRpcError(node.call('eth_call', [{ from: DEV_ADDRESSES[0], to: storage, data: data('Storage', 'set', [9n]), gas: '0x6000' }, 'latest']), -32000, /out of gas/);
  });

  it('honours the fee members (gasPrice; maxFeePerGas with maxPriorityFeePerGas) for a funded sender', async () => {
    const call = { from: DEV_ADDRESSES[0], to: storage, data: data('Storage', 'get') };
    expect(await node.call('eth_call', [{ ...call, gasPrice: '0x3b9aca00' }, 'latest'])).to.equal(word(43n));
    expect(await node.call('eth_call', [{ ...call, maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x1' }, 'latest'])).to.equal(word(43n));
  });

  it('takes an access list', async () => {
    const call = { from: DEV_ADDRESSES[0], to: storage, data: data('Storage', 'get'), accessList: [{ address: storage, storageKeys: [`0x${'00'.repeat(32)}`] }] };
    expect(await node.call('eth_call', [call, 'latest'])).to.equal(word(43n));
  });

  it('gas below the intrinsic cost: -32000 "intrinsic gas too low"', async () => {
    await expectRpcError(node.call('eth_call', [{ from: DEV_ADDRESSES[0], to: SINK_ADDRESS, gas: '0x4e20' }, 'latest']), -32000, 'intrinsic gas too low: have 20000, want 21000');
  });

  it('a value above the sender’s balance: -32000 "insufficient funds for gas * price + value"', async () => {
    await expectRpcError(
      node.call('eth_call', [{ from: STRANGER, to: SINK_ADDRESS, value: '0x1' }, 'latest']),
      -32000,
      `insufficient funds for gas * price + value: address ${STRANGER} have 0 want 1`,
    );
  });

  it('an unpriced call needs no funds for gas', async () => {
    expect(await node.call('eth_call', [{ from: STRANGER, to: storage, data: data('Storage', 'get') }, 'latest'])).to.equal(word(43n));
  });

  it('a priced call must be affordable: -32000 "insufficient funds for gas * price + value"', async () => {
    await expectRpcError(
      node.call('eth_call', [{ from: STRANGER, to: storage, data: data('Storage', 'get'), gas: '0x186a0', gasPrice: '0x1' }, 'latest']),
      -32000,
      `insufficient funds for gas * price + value: address ${STRANGER} have 0 want 100000`,
    );
  });

  it('`input` and `data` that differ: -32000', async () => {
    await expectRpcError(
      node.call('eth_call', [{ to: storage, input: data('Storage', 'get'), data: data('Storage', 'value') }, 'latest']),
      -32000,
      'both "data" and "input" are set and not equal. Please use "input" to pass transaction call data',
    );
  });

  it('a chainId other than the node’s: -32000; the node’s own is fine', async () => {
    await expectRpcError(node.call('eth_call', [{ to: storage, data: data('Storage', 'get'), chainId: '0x1' }, 'latest']), -32000, "chainId does not match node's (have=1, want=31337)");
    expect(await node.call('eth_call', [{ to: storage, data: data('Storage', 'get'), chainId: '0x7a69' }, 'latest'])).to.equal(word(43n));
  });

  it('a block the chain does not have: -32000 "header not found"', async () => {
    await expectRpcError(node.call('eth_call', [{ to: storage, data: data('Storage', 'get') }, '0xffffff']), -32000, 'header not found');
  });

  it('caps gas above the per-transaction cap (EIP-7825) instead of failing, as geth caps a call’s gas', async () => {
    const stored = await node.call('eth_call', [{ to: storage, data: data('Storage', 'get') }, 'latest']);
    for (const gas of ['0x1c9c380', '0x1000001', '0xffffffffffffffff']) {
      expect(await node.call('eth_call', [{ to: storage, data: data('Storage', 'get'), gas }, 'latest'])).to.equal(stored);
    }
  });

  it('refuses gas that does not fit 64 bits with -32602', async () => {
    await expectRpcError(node.call('eth_call', [{ to: storage, gas: '0x10000000000000000' }, 'latest']), -32602, /gas/);
  });

  it('refuses a priority fee above the fee cap as geth does, also when the fee cap is left out', async () => {
    await expectRpcError(
      node.call('eth_call', [{ from: DEV_ADDRESSES[0], to: storage, maxPriorityFeePerGas: '0x1' }, 'latest']),
      -32000,
      'max priority fee per gas higher than max fee per gas: address 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266, maxPriorityFeePerGas: 1, maxFeePerGas: 0',
    );
  });

  it('answers a fee so high that gas × fee overflows 256 bits as insufficient funds', async () => {
    const max = `0x${'f'.repeat(64)}`;
    for (const fees of [{ gasPrice: max }, { maxFeePerGas: max, maxPriorityFeePerGas: '0x0' }]) {
      await expectRpcError(node.call('eth_call', [{ from: DEV_ADDRESSES[0], to: storage, ...fees }, 'latest']), -32000, /^insufficient funds for gas \* price \+ value/);
    }
  });

  it('refuses gasPrice together with EIP-1559 fee fields', async () => {
    await expectRpcError(
      node.call('eth_call', [{ to: storage, gasPrice: '0x1', maxFeePerGas: '0x2' }, 'latest']),
      -32000,
      'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified',
    );
  });

  it('a sender with code (a contract) may call, as geth lets it', async () => {
    expect(await node.call('eth_call', [{ from: reverter, to: storage, data: data('Storage', 'get') }, 'latest'])).to.match(/^0x[0-9a-f]{64}$/);
    expect(await node.call('eth_getCode', [reverter, 'latest'])).to.equal(contracts().Reverter.deployedBytecode);
  });

  describe('with state and block overrides', () => {
    /** NUMBER, TIMESTAMP, COINBASE, BASEFEE, returned as four words. */
    const BLOCK_PROBE = '0x4360005242602052416040524860605260806000f3';
    const PROBE = '0x00000000000000000000000000000000000c0de1';

    it('code and storage the chain does not hold: the call sees them, the chain keeps its own', async () => {
      const answer = await node.call('eth_call', [
        { to: PROBE, data: data('Storage', 'get') },
        'latest',
        { [PROBE]: { code: contracts().Storage.deployedBytecode, state: { [word(0n)]: word(77n) } } },
      ]);
      expect(answer).to.equal(word(77n));
      expect(await node.call('eth_getCode', [PROBE, 'latest'])).to.equal('0x');
    });

    it('stateDiff changes the slots it names, state replaces the whole storage', async () => {
      const count = async (override: object) => node.call('eth_call', [{ to: storage, data: data('Storage', 'count') }, 'latest', { [storage]: override }]);
      const counted = await node.call('eth_call', [{ to: storage, data: data('Storage', 'count') }, 'latest']);
      expect(await count({ stateDiff: { [word(0n)]: word(1n) } })).to.equal(counted);
      expect(await count({ state: { [word(0n)]: word(1n) } })).to.equal(word(0n));
    });

    it('leaves nothing behind: the calls after an overridden one, or a refused one, see the chain’s own state', async () => {
      const call = { to: storage, data: data('Storage', 'count') };
      const count = (overrides?: StateOverride) => (overrides === undefined ? node.call('eth_call', [call, 'latest']) : node.call('eth_call', [call, 'latest', overrides]));
      const counted = await count();
      const overridden = { [storage]: { state: { [word(0n)]: word(5n) } }, [PROBE]: { code: contracts().Storage.deployedBytecode, balance: '0x7' } };
      expect(await Promise.all([count(overridden), count(overridden)])).to.deep.equal([word(0n), word(0n)]);
      await expectRpcError(count({ [storage]: { state: {}, stateDiff: {} } }), -32000, /has both 'state' and 'stateDiff'/);
      expect(await Promise.all([count(), count()])).to.deep.equal([counted, counted]);
      expect(await node.call('eth_call', [{ to: PROBE, data: data('Storage', 'get') }, 'latest'])).to.equal('0x');
      expect(await node.call('eth_call', [{ from: PROBE, to: SINK_ADDRESS, value: '0x1' }, 'latest']).catch((error: Error) => error.message)).to.match(/insufficient funds/);
    });

    it('a balance override funds a sender that has nothing', async () => {
      await expectRpcError(node.call('eth_call', [{ from: STRANGER, to: SINK_ADDRESS, value: '0x1' }, 'latest']), -32000, /insufficient funds/);
      expect(await node.call('eth_call', [{ from: STRANGER, to: SINK_ADDRESS, value: '0x1' }, 'latest', { [STRANGER]: { balance: '0x1' } }])).to.equal('0x');
    });

    it('block overrides: number, time, fee recipient and base fee as the code reads them', async () => {
      const overrides = { number: '0x1234', time: '0x7fffffff', feeRecipient: SINK_ADDRESS, baseFeePerGas: '0x7' };
      // Priced, so it runs with the base fee (an unpriced call runs with none, as in geth).
      const call = { from: DEV_ADDRESSES[0], to: PROBE, maxFeePerGas: '0x7', maxPriorityFeePerGas: '0x0' };
      const answer = await node.call('eth_call', [call, 'latest', { [PROBE]: { code: BLOCK_PROBE } }, overrides]);
      expect(answer).to.equal(`0x${[word(0x1234n), word(0x7fffffffn), word(BigInt(SINK_ADDRESS)), word(7n)].map((w) => w.slice(2)).join('')}`);
    });

    it('refuses state and stateDiff together, and block overrides only eth_simulateV1 takes: -32000', async () => {
      await expectRpcError(node.call('eth_call', [{ to: storage }, 'latest', { [storage]: { state: {}, stateDiff: {} } }]), -32000, /has both 'state' and 'stateDiff'/);
      await expectRpcError(node.call('eth_call', [{ to: storage }, 'latest', {}, { beaconRoot: word(1n) }]), -32000, 'block override "beaconRoot" is not supported for this RPC method');
    });

    it('refuses an override with a member it does not know: -32602', async () => {
      await expectRpcError(node.call('eth_call', [{ to: storage }, 'latest', { [storage]: { balanse: '0x1' } as never }]), -32602, /stateOverrides/);
    });
  });
});

