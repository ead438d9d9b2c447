// ethers v6 driving the debug and simulation methods through JsonRpcProvider.send: a failed
// transaction traced to the frame that reverted, its reason decoded with the contract's ABI,
// a call traced before it is sent, and a batch simulated with eth_simulateV1.
import { expect } from 'chai';
import { Contract, ContractFactory, Interface, JsonRpcProvider, Wallet, parseEther, type InterfaceAbi } from 'ethers';
import type { CallFrame, SimulatedBlock, StructTrace } from '../../generated/types.js';
import { contracts } from '../helpers/contracts.js';
import { DEV_KEYS, startTestNode, type TestNode } from '../helpers/node.js';
import { SINK } from '../helpers/transactions.js';

describe('ethers: tracing and simulation through provider.send', () => {
  let node: TestNode;
  let provider: JsonRpcProvider;
  let wallet: Wallet;
  let relay: Contract;
  let reverter: Contract;

  const deploy = async (name: 'Relay' | 'Reverter') => {
    const C = contracts()[name];
    const contract = await new ContractFactory(C.abi as InterfaceAbi, C.bytecode, wallet).deploy();
    await contract.waitForDeployment();
    return contract as unknown as Contract;
  };

  before(async () => {
    node = await startTestNode();
    provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 50 });
    wallet = new Wallet(DEV_KEYS[0], provider);
    relay = await deploy('Relay');
    reverter = await deploy('Reverter');
  });
  after(async () => {
    provider.destroy();
    await node.destroy();
  });

  it('a failed transaction traced with callTracer: the frame that reverted and its reason, decoded by the ABI', async () => {
    const inner = reverter.interface.encodeFunctionData('failWithReason');
    const tx = await relay.getFunction('forward').send(await reverter.getAddress(), inner, { gasLimit: 300_000n });
    // wait() throws for a failed transaction; the receipt says status 0.
    await tx.wait().catch(() => undefined);
    expect((await provider.getTransactionReceipt(tx.hash))?.status).to.equal(0);
    const trace = (await provider.send('debug_traceTransaction', [tx.hash, { tracer: 'callTracer' }])) as CallFrame;
    const failed = trace.calls!.find((call) => call.error !== undefined)!;
    expect(failed.to).to.equal((await reverter.getAddress()).toLowerCase());
    expect(failed.revertReason).to.equal('Reverter: no luck');
    expect(new Interface(['error Error(string)']).parseError(failed.output!)?.args[0]).to.equal('Reverter: no luck');
  });

  it('a call traced before it is sent, with the struct logger', async () => {
    const data = reverter.interface.encodeFunctionData('failWithPanic', [0n]);
    const trace = (await provider.send('debug_traceCall', [{ to: await reverter.getAddress(), data }, 'latest'])) as StructTrace;
    expect(trace.failed).to.equal(true);
    expect(new Interface(['error Panic(uint256)']).parseError(trace.returnValue)?.args[0]).to.equal(0x12n);
    expect(trace.structLogs.at(-1)!.op).to.equal('REVERT');
  });

  it('a batch simulated with eth_simulateV1: a transfer and a contract call, each result in order', async () => {
    const from = wallet.address;
    const blocks = (await provider.send('eth_simulateV1', [
      {
        blockStateCalls: [
          {
            calls: [
              { from, to: SINK, value: `0x${parseEther('1').toString(16)}` },
              { from, to: await reverter.getAddress(), data: reverter.interface.encodeFunctionData('touched') },
            ],
          },
        ],
      },
      'latest',
    ])) as SimulatedBlock[];
    expect(blocks[0].calls.map((call) => call.status)).to.deep.equal(['0x1', '0x1']);
    expect(reverter.interface.decodeFunctionResult('touched', blocks[0].calls[1].returnData)[0]).to.equal(0n);
    expect(await provider.getBalance(SINK)).to.equal(0n);
  });
});
