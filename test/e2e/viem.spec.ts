// viem as the client: what a dApp or script built on viem sees of this node.
import { expect } from 'chai';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  defineChain,
  encodeErrorResult,
  encodeFunctionData,
  getAddress,
  http,
  parseEther,
  parseGwei,
  type Abi,
  type Address,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { contracts, type CompiledContracts } from '../helpers/contracts.js';
import { DEV_ADDRESSES, DEV_KEYS, startTestNode, type TestNode } from '../helpers/node.js';
import { rpc } from '../helpers/rpc.js';
import { CHAIN_ID, rpcError, SINK } from '../helpers/transactions.js';

/** Solidity's built-in `Error(string)`, the ABI of a require/revert reason. */
const ERROR_STRING_ABI = [{ type: 'error', name: 'Error', inputs: [{ type: 'string', name: 'message' }] }] as const;

describe('viem as the client', () => {
  let node: TestNode;
  let C: CompiledContracts;
  let client: PublicClient;
  let wallet: WalletClient;
  let account: PrivateKeyAccount;

  const abiOf = (name: keyof CompiledContracts) => C[name].abi as unknown as Abi;

  async function deploy(name: keyof CompiledContracts, args: unknown[] = []): Promise<Address> {
    const hash = await wallet.deployContract({ abi: abiOf(name), bytecode: C[name].bytecode, args, account, chain: wallet.chain });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).to.equal('success');
    return receipt.contractAddress!;
  }

  before(async () => {
    C = contracts();
    node = await startTestNode();
    const chain = defineChain({
      id: CHAIN_ID,
      name: 'evm-node',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [node.url] } },
    });
    account = privateKeyToAccount(DEV_KEYS[0]);
    client = createPublicClient({ chain, transport: http(node.url), pollingInterval: 50 }) as PublicClient;
    wallet = createWalletClient({ account, chain, transport: http(node.url), pollingInterval: 50 });
  });
  after(() => node.destroy());

  describe('a contract compiled from Solidity', () => {
    let token: Address;

    before(async () => {
      token = await deploy('Token', ['Test Token', 'TT', parseEther('1000000')]);
    });

    it('deploys: the receipt names the contract address and eth_getCode answers the runtime code', async () => {
      expect(await client.getCode({ address: token })).to.equal(C.Token.deployedBytecode);
    });

    it('reads state with eth_call', async () => {
      const abi = abiOf('Token');
      expect(await client.readContract({ address: token, abi, functionName: 'name' })).to.equal('Test Token');
      expect(await client.readContract({ address: token, abi, functionName: 'decimals' })).to.equal(18);
      expect(await client.readContract({ address: token, abi, functionName: 'balanceOf', args: [account.address] })).to.equal(parseEther('1000000'));
    });

    it('transacts: a transfer moves the balance and its receipt carries the Transfer log in full', async () => {
      const abi = abiOf('Token');
      const to = privateKeyToAccount(generatePrivateKey()).address;
      const hash = await wallet.writeContract({ address: token, abi, functionName: 'transfer', args: [to, 1234n], account, chain: wallet.chain });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.status).to.equal('success');
      expect(receipt.logs).to.have.length(1);
      const log = receipt.logs[0];
      expect(log.address).to.equal(token.toLowerCase());
      expect(log.blockHash).to.equal(receipt.blockHash);
      expect(log.blockNumber).to.equal(receipt.blockNumber);
      expect(log.transactionHash).to.equal(hash);
      expect(log.transactionIndex).to.equal(receipt.transactionIndex);
      expect(log.logIndex).to.equal(0);
      const event = decodeEventLog({ abi, data: log.data, topics: log.topics });
      expect(event.eventName).to.equal('Transfer');
      expect(event.args).to.deep.equal({ from: account.address, to, value: 1234n });
      expect(await client.readContract({ address: token, abi, functionName: 'balanceOf', args: [to] })).to.equal(1234n);
    });

    it('reports effectiveGasPrice: base fee plus tip, within the fee cap', async () => {
      const hash = await wallet.sendTransaction({ to: SINK, value: 1n, maxFeePerGas: parseGwei('20'), maxPriorityFeePerGas: parseGwei('2'), account, chain: wallet.chain });
      const receipt = await client.waitForTransactionReceipt({ hash });
      const block = await client.getBlock({ blockNumber: receipt.blockNumber });
      expect(receipt.effectiveGasPrice).to.equal(block.baseFeePerGas! + parseGwei('2'));
    });
  });

  describe('reverts', () => {
    let reverter: Address;

    before(async () => {
      reverter = await deploy('Reverter');
    });

    it('surface the reason string of a require/revert', async () => {
      try {
        await client.readContract({ address: reverter, abi: abiOf('Reverter'), functionName: 'failWithReason' });
        expect.fail('the call should revert');
      } catch (error) {
        const revert = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
        expect(revert, String(error)).to.be.instanceOf(ContractFunctionRevertedError);
        expect(revert!.reason).to.equal('Reverter: no luck');
        expect(revert!.raw).to.equal(encodeErrorResult({ abi: ERROR_STRING_ABI, errorName: 'Error', args: ['Reverter: no luck'] }));
      }
    });

    it('answer eth_call with code 3, "execution reverted: <reason>" and the revert bytes as data', async () => {
      const data = encodeFunctionData({ abi: abiOf('Reverter'), functionName: 'failWithReason' });
      const error = await rpcError(rpc(node.url, 'eth_call', [{ to: reverter, data }, 'latest']));
      expect(error.code).to.equal(3);
      expect(error.message).to.equal('execution reverted: Reverter: no luck');
      expect(error.data).to.equal(encodeErrorResult({ abi: ERROR_STRING_ABI, errorName: 'Error', args: ['Reverter: no luck'] }));
    });

    it('decode a custom error with its arguments', async () => {
      try {
        await client.readContract({ address: reverter, abi: abiOf('Reverter'), functionName: 'failWithCustomError', account: account.address });
        expect.fail('the call should revert');
      } catch (error) {
        const revert = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
        expect(revert, String(error)).to.be.instanceOf(ContractFunctionRevertedError);
        expect(revert!.data?.errorName).to.equal('Unauthorized');
        expect(revert!.data?.args).to.deep.equal([account.address, 42n]);
      }
    });

    it('decode a panic (division by zero) to its code', async () => {
      try {
        await client.readContract({ address: reverter, abi: abiOf('Reverter'), functionName: 'failWithPanic', args: [0n] });
        expect.fail('the call should revert');
      } catch (error) {
        const revert = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError) as ContractFunctionRevertedError | null;
        expect(revert, String(error)).to.be.instanceOf(ContractFunctionRevertedError);
        expect(revert!.data?.errorName).to.equal('Panic');
        expect(revert!.data?.args).to.deep.equal([0x12n]);
      }
    });

    it('a reverting transaction is mined with status reverted', async () => {
      const hash = await wallet.writeContract({
        address: reverter,
        abi: abiOf('Reverter'),
        functionName: 'touch',
        args: [false],
        gas: 100_000n,
        account,
        chain: wallet.chain,
      });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.status).to.equal('reverted');
      expect(receipt.logs).to.deep.equal([]);
    });
  });

  describe('estimateGas', () => {
    it('is exactly the 21,000 of a plain transfer', async () => {
      expect(await client.estimateGas({ account: account.address, to: SINK, value: 1n })).to.equal(21_000n);
    });

    it('is enough for a call that needs more gas than it uses, and the transaction succeeds with it', async () => {
      const reverter = await deploy('Reverter');
      const abi = abiOf('Reverter');
      const gas = await client.estimateContractGas({ address: reverter, abi, functionName: 'needsGas', args: [20n], account: account.address });
      const hash = await wallet.writeContract({ address: reverter, abi, functionName: 'needsGas', args: [20n], gas, account, chain: wallet.chain });
      expect((await client.waitForTransactionReceipt({ hash })).status).to.equal('success');
    });

    it('surfaces the revert reason when the call cannot succeed', async () => {
      const reverter = await deploy('Reverter');
      try {
        await client.estimateContractGas({ address: reverter, abi: abiOf('Reverter'), functionName: 'touch', args: [false], account: account.address });
        expect.fail('the estimate should fail');
      } catch (error) {
        expect(String((error as BaseError).message)).to.contain('Reverter: touch refused');
      }
    });
  });

  describe('every transaction type', () => {
    let storage: Address;
    before(async () => {
      storage = await deploy('Storage');
    });

    it('legacy without EIP-155 (v = 27/28): receipt type legacy, no chainId on the transaction', async () => {
      const nonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
      const raw = await account.signTransaction({ type: 'legacy', nonce, to: SINK, value: 1n, gas: 21_000n, gasPrice: parseGwei('5') });
      const hash = await client.sendRawTransaction({ serializedTransaction: raw });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.type).to.equal('legacy');
      expect(receipt.status).to.equal('success');
      const tx = await client.getTransaction({ hash });
      expect(tx.chainId).to.equal(undefined);
      expect([27n, 28n]).to.include(tx.v);
    });

    it('legacy with EIP-155: receipt type legacy, v = chainId × 2 + 35/36', async () => {
      const hash = await wallet.sendTransaction({ type: 'legacy', to: SINK, value: 1n, gasPrice: parseGwei('5'), account, chain: wallet.chain });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.type).to.equal('legacy');
      expect(receipt.status).to.equal('success');
      const tx = await client.getTransaction({ hash });
      expect(tx.chainId).to.equal(CHAIN_ID);
      expect([BigInt(CHAIN_ID * 2 + 35), BigInt(CHAIN_ID * 2 + 36)]).to.include(tx.v);
    });

    it('EIP-2930 with an access list: receipt type eip2930', async () => {
      const hash = await wallet.sendTransaction({
        type: 'eip2930',
        to: storage,
        data: encodeFunctionData({ abi: abiOf('Storage'), functionName: 'set', args: [5n] }),
        accessList: [{ address: storage, storageKeys: [`0x${'00'.repeat(32)}`] }],
        gasPrice: parseGwei('5'),
        account,
        chain: wallet.chain,
      });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.type).to.equal('eip2930');
      expect(receipt.status).to.equal('success');
      const tx = await client.getTransaction({ hash });
      expect(tx.accessList).to.deep.equal([{ address: storage.toLowerCase(), storageKeys: [`0x${'00'.repeat(32)}`] }]);
    });

    it('EIP-1559: receipt type eip1559', async () => {
      const hash = await wallet.sendTransaction({ type: 'eip1559', to: SINK, value: 1n, account, chain: wallet.chain });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.type).to.equal('eip1559');
      expect(receipt.status).to.equal('success');
    });

    it('EIP-7702: receipt type eip7702, and the authority now delegates to the contract (0xef0100 ‖ address)', async () => {
      const authority = privateKeyToAccount(generatePrivateKey());
      const authorization = await wallet.signAuthorization({ account: authority, contractAddress: storage, chainId: CHAIN_ID, nonce: 0 });
      const hash = await wallet.writeContract({
        address: authority.address,
        abi: abiOf('Storage'),
        functionName: 'set',
        args: [77n],
        authorizationList: [authorization],
        account,
        chain: wallet.chain,
      });
      const receipt = await client.waitForTransactionReceipt({ hash });
      expect(receipt.type).to.equal('eip7702');
      expect(receipt.status).to.equal('success');
      expect(await client.getCode({ address: authority.address })).to.equal(`0xef0100${storage.slice(2).toLowerCase()}`);
      // The delegate's code ran in the authority's storage.
      expect(await client.readContract({ address: authority.address, abi: abiOf('Storage'), functionName: 'value' })).to.equal(77n);
      expect(await client.readContract({ address: storage, abi: abiOf('Storage'), functionName: 'value' })).to.not.equal(77n);
      const tx = await client.getTransaction({ hash });
      expect(tx.authorizationList).to.have.length(1);
      expect(getAddress(tx.authorizationList![0].address)).to.equal(getAddress(storage));
    });
  });

  it('eth_sendTransaction: a node-held account signs', async () => {
    const nodeWallet = createWalletClient({ account: DEV_ADDRESSES[1] as Address, chain: wallet.chain, transport: http(node.url) });
    const hash = await nodeWallet.sendTransaction({ to: SINK, value: 5n, account: DEV_ADDRESSES[1] as Address, chain: wallet.chain });
    const receipt = await client.waitForTransactionReceipt({ hash });
    expect(receipt.status).to.equal('success');
    expect(receipt.from).to.equal(DEV_ADDRESSES[1]);
    expect(receipt.type).to.equal('eip1559');
  });

  it('eth_getTransactionByHash: pooled (null block members) and then mined', async () => {
    await rpc(node.url, 'evm_setAutomine', [false]);
    try {
      const hash = await wallet.sendTransaction({ to: SINK, value: 9n, account, chain: wallet.chain });
      const pooled = await client.getTransaction({ hash });
      expect(pooled.blockHash).to.equal(null);
      expect(pooled.blockNumber).to.equal(null);
      expect(pooled.transactionIndex).to.equal(null);
      expect(pooled.from).to.equal(account.address.toLowerCase());
      expect(await client.getTransactionReceipt({ hash }).catch(() => null)).to.equal(null);
      await rpc(node.url, 'evm_mine', []);
      const mined = await client.getTransaction({ hash });
      const receipt = await client.getTransactionReceipt({ hash });
      expect(mined.blockHash).to.equal(receipt.blockHash);
      expect(mined.blockNumber).to.equal(receipt.blockNumber);
      expect(mined.transactionIndex).to.equal(receipt.transactionIndex);
    } finally {
      await rpc(node.url, 'evm_setAutomine', [true]);
    }
  });

  it('consecutive sends take consecutive nonces (viem asks for the pending count each time)', async () => {
    const sender = privateKeyToAccount(DEV_KEYS[2]);
    const start = await client.getTransactionCount({ address: sender.address });
    const nonces: number[] = [];
    for (let i = 0; i < 4; i++) {
      const hash = await wallet.sendTransaction({ to: SINK, value: 1n, account: sender, chain: wallet.chain });
      nonces.push((await client.getTransaction({ hash })).nonce);
    }
    expect(nonces).to.deep.equal([start, start + 1, start + 2, start + 3]);
  });
});
