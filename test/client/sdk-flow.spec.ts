// The generated client SDK (clients/typescript) driving a real node through a full flow in manual-mining mode:
// deploy a contract with a raw signed transaction, inspect the pool, mine, call it, poll filters.
// Every result the SDK returns is also checked against the contract's result schema.
import { expect } from 'chai';
import { Wallet, getCreateAddress } from 'ethers';
import {
  ErrorCodes,
  JsonRpcError,
  TransportError,
  createClient,
  ethBlockNumber,
  httpTransport,
  isJsonRpcError,
  methodNames as clientMethodNames,
  type Client,
  type Log,
  type Transport,
} from '../../clients/typescript/src/index.js';
import { methodNames, resultError, type MethodName } from '../../generated/index.js';
import { DEV_ADDRESSES, DEV_KEYS, startTestNode, type TestNode } from '../helpers/node.js';
import { INIT, RUNTIME, TOPIC, WORD_42, type Hex } from './answer-contract.js';

/** A transport that fails the test when a result falls outside the method's result schema. */
function contractChecked(inner: Transport): Transport {
  return {
    async request(method, params) {
      const result = await inner.request(method, params);
      if ((methodNames as readonly string[]).includes(method)) {
        const problem = resultError(method as MethodName, result);
        if (problem !== null) throw new Error(`${method} answered outside its contract: ${problem}`);
      }
      return result;
    },
    close: () => inner.close(),
  };
}

describe('client SDK: a full flow against the node (manual mining)', function () {
  let node: TestNode;
  let client: Client;
  const wallet = new Wallet(DEV_KEYS[0]);
  const sender = DEV_ADDRESSES[0];
  let chainId: bigint;
  let contract: Hex;
  let deployHash: Hex;
  let callHash: Hex;
  let logFilter: Hex | undefined;
  let blockFilter: Hex | undefined;

  async function signed(nonce: number, to: Hex | null, data: Hex): Promise<Hex> {
    return (await wallet.signTransaction({
      type: 2,
      chainId,
      nonce,
      to,
      data,
      value: 0n,
      gasLimit: 200_000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    })) as Hex;
  }

  before(async function () {
    node = await startTestNode({ mining: false });
    client = createClient(contractChecked(httpTransport(node.url)));
    chainId = BigInt(await client.eth_chainId());
  });

  after(async function () {
    await client?.transport.close();
    await node?.destroy();
  });

  it('offers one function per contract method', function () {
    expect([...clientMethodNames]).to.deep.equal([...methodNames]);
    for (const name of methodNames) expect(client[name], name).to.be.a('function');
  });

  it('submits a raw signed deployment, which waits in the pool until mined', async function () {
    const nonce = Number(await client.eth_getTransactionCount(sender, 'pending'));
    expect(nonce).to.equal(0);
    deployHash = await client.eth_sendRawTransaction(await signed(nonce, null, INIT));
    expect(deployHash).to.match(/^0x[0-9a-f]{64}$/);
    contract = getCreateAddress({ from: sender, nonce }).toLowerCase() as Hex;

    const pendingTx = await client.eth_getTransactionByHash(deployHash);
    expect(pendingTx?.blockNumber ?? null).to.equal(null);
    expect(await client.eth_getTransactionReceipt(deployHash)).to.equal(null);
    expect(await client.eth_getCode(contract, 'latest')).to.equal('0x');
  });

  it('inspects the pool: status, content, inspect', async function () {
    const status = await client.txpool_status();
    expect(Number(status.pending)).to.equal(1);
    expect(Number(status.queued)).to.equal(0);

    const content = await client.txpool_content();
    const bySender = Object.entries(content.pending).find(([address]) => address.toLowerCase() === sender)?.[1];
    expect(bySender, 'the sender in txpool_content.pending').to.not.equal(undefined);
    expect(bySender!['0']!.hash).to.equal(deployHash);

    const inspect = await client.txpool_inspect();
    const summary = Object.entries(inspect.pending).find(([address]) => address.toLowerCase() === sender)?.[1];
    expect(summary?.['0']).to.be.a('string').and.match(/contract creation/);
  });

  it('creates filters before mining', async () => {
    logFilter = await client.eth_newFilter({ address: contract, topics: [TOPIC] });
    blockFilter = await client.eth_newBlockFilter();
  });

  it('mines the deployment with evm_mine and finds the code', async function () {
    const before = Number(await client.eth_blockNumber());
    await client.evm_mine();
    expect(Number(await ethBlockNumber(client.transport))).to.equal(before + 1);
    const receipt = await client.eth_getTransactionReceipt(deployHash);
    expect(receipt?.status).to.equal('0x1');
    expect(receipt?.contractAddress).to.equal(contract);
    expect(await client.eth_getCode(contract, 'latest')).to.equal(RUNTIME);
    expect(Number((await client.txpool_status()).pending)).to.equal(0);
  });

  it('calls the contract', async function () {
    expect(await client.eth_call({ to: contract, input: '0x' }, 'latest')).to.equal(WORD_42);
    // The optional block param may be left out; the SDK drops trailing undefined params.
    expect(await client.eth_call({ to: contract })).to.equal(WORD_42);
  });

  it('sends a transaction to the contract and reads its log from the receipt', async function () {
    callHash = await client.eth_sendRawTransaction(await signed(1, contract, '0x'));
    expect(Number((await client.txpool_status()).pending)).to.equal(1);
    await client.evm_mine();
    const receipt = await client.eth_getTransactionReceipt(callHash);
    expect(receipt?.status).to.equal('0x1');
    expect(receipt?.logs).to.have.length(1);
    expect(receipt!.logs[0]!.topics).to.deep.equal([TOPIC]);
    expect(receipt!.logs[0]!.data).to.equal(WORD_42);
  });

  it('polls the filters: the new blocks and the log', async () => {
    const blocks = (await client.eth_getFilterChanges(blockFilter!)) as string[];
    expect(blocks).to.have.length(2);
    const latest = await client.eth_getBlockByNumber('latest', false);
    expect(blocks[1]).to.equal(latest!.hash);

    const logs = (await client.eth_getFilterChanges(logFilter!)) as Log[];
    expect(logs).to.have.length(1);
    expect(logs[0]!.transactionHash).to.equal(callHash);
    expect(logs[0]!.address).to.equal(contract);
    expect(await client.eth_getFilterChanges(logFilter!), 'a second poll is empty').to.deep.equal([]);

    expect(await client.eth_uninstallFilter(logFilter!)).to.equal(true);
    expect(await client.eth_uninstallFilter(blockFilter!)).to.equal(true);
  });

  it('surfaces an invalid param as a JsonRpcError with code -32602', async function () {
    const error = await client.eth_getBlockByNumber('bogus' as never, false).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(JsonRpcError);
    const e = error as JsonRpcError;
    expect(e.code).to.equal(ErrorCodes.InvalidParams);
    expect(e.method).to.equal('eth_getBlockByNumber');
    expect(e.message).to.match(/^invalid argument 0 \(blockNumber\)/);
  });

  it('surfaces a revert as code 3 with the revert data', async function () {
    // Creation code that reverts with one zero word: PUSH1 0x20 PUSH1 0 REVERT.
    const error = await client.eth_call({ from: sender, input: '0x60206000fd' }, 'latest').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isJsonRpcError(error, ErrorCodes.ExecutionReverted), String(error)).to.equal(true);
    const e = error as JsonRpcError;
    expect(e.message).to.equal('execution reverted');
    expect(e.data).to.equal(`0x${'00'.repeat(32)}`);
  });

  it('surfaces an unknown method as code -32601', async function () {
    const error = await client.transport.request('eth_nope', []).catch((e: unknown) => e);
    expect(isJsonRpcError(error, ErrorCodes.MethodNotFound)).to.equal(true);
    expect((error as JsonRpcError).message).to.equal('the method eth_nope does not exist/is not available');
  });

  it('reports an unreachable node as a TransportError', async function () {
    const dead = createClient(httpTransport('http://127.0.0.1:9/', { timeoutMs: 5000 }));
    const error = await dead.eth_chainId().catch((e: unknown) => e);
    expect(error).to.be.instanceOf(TransportError);
  });
});
