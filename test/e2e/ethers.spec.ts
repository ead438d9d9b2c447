// ethers v6 as the client: what a dApp or script built on ethers sees of this node.
import { expect } from 'chai';
import {
  AbiCoder,
  Contract,
  ContractFactory,
  JsonRpcProvider,
  Wallet,
  getAddress,
  isCallException,
  parseEther,
  parseUnits,
  type BaseContract,
  type ContractTransactionResponse,
  type InterfaceAbi,
} from 'ethers';
import { contracts, type CompiledContracts } from '../helpers/contracts.js';
import { DEV_ADDRESSES, DEV_KEYS, startTestNode, type TestNode } from '../helpers/node.js';
import { rpc } from '../helpers/rpc.js';
import { CHAIN_ID, SINK } from '../helpers/transactions.js';

/** A contract with untyped methods: the ABI comes from solc at run time. */
type Dynamic = BaseContract & Record<string, ((...args: unknown[]) => Promise<never>) & { staticCall: (...a: unknown[]) => Promise<never>; estimateGas: (...a: unknown[]) => Promise<bigint> }>;

const reasonBytes = (reason: string) => `0x08c379a0${AbiCoder.defaultAbiCoder().encode(['string'], [reason]).slice(2)}`;

describe('ethers v6 as the client', () => {
  let node: TestNode;
  let C: CompiledContracts;
  let provider: JsonRpcProvider;
  let wallet: Wallet;

  async function deploy(name: keyof CompiledContracts, args: unknown[] = [], signer: Wallet = wallet): Promise<Dynamic> {
    const factory = new ContractFactory(C[name].abi as InterfaceAbi, C[name].bytecode, signer);
    const contract = await factory.deploy(...args);
    await contract.waitForDeployment();
    return contract as unknown as Dynamic;
  }

  before(async () => {
    C = contracts();
    node = await startTestNode();
    provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 50 });
    wallet = new Wallet(DEV_KEYS[0], provider);
  });
  after(async () => {
    provider.destroy();
    await node.destroy();
  });

  describe('a contract compiled from Solidity', () => {
    let token: Dynamic;
    let address: string;

    before(async () => {
      token = await deploy('Token', ['Test Token', 'TT', parseEther('1000000')]);
      address = await token.getAddress();
    });

    it('deploys: the receipt names the contract address, eth_getCode answers the runtime code', async () => {
      const receipt = await token.deploymentTransaction()!.wait();
      expect(receipt!.status).to.equal(1);
      expect(receipt!.contractAddress).to.equal(address);
      expect(receipt!.to).to.equal(null);
      expect(await provider.getCode(address)).to.equal(C.Token.deployedBytecode);
    });

    it('reads state with eth_call', async () => {
      expect(await token.name()).to.equal('Test Token');
      expect(await token.symbol()).to.equal('TT');
      expect(await token.decimals()).to.equal(18n);
      expect(await token.balanceOf(wallet.address)).to.equal(parseEther('1000000'));
    });

    it('transacts: a transfer moves the balance; the receipt carries the Transfer log, parsed by the ABI', async () => {
      const to = Wallet.createRandom().address;
      const tx = (await token.transfer(to, 1234n)) as ContractTransactionResponse;
      const receipt = (await tx.wait())!;
      expect(receipt.status).to.equal(1);
      expect(receipt.logs).to.have.length(1);
      const log = receipt.logs[0];
      expect(log.address).to.equal(address);
      expect(log.blockHash).to.equal(receipt.blockHash);
      expect(log.blockNumber).to.equal(receipt.blockNumber);
      expect(log.transactionHash).to.equal(tx.hash);
      expect(log.transactionIndex).to.equal(receipt.index);
      expect(log.index).to.equal(0);
      const parsed = token.interface.parseLog(log)!;
      expect(parsed.name).to.equal('Transfer');
      expect(parsed.args.toArray()).to.deep.equal([wallet.address, to, 1234n]);
      expect(await token.balanceOf(to)).to.equal(1234n);
    });

    it('an approve + transferFrom from a second account works, and the allowance is spent', async () => {
      const spender = new Wallet(DEV_KEYS[1], provider);
      await ((await token.approve(spender.address, 500n)) as ContractTransactionResponse).wait();
      const asSpender = token.connect(spender) as Dynamic;
      await ((await asSpender.transferFrom(wallet.address, spender.address, 200n)) as ContractTransactionResponse).wait();
      expect(await token.allowance(wallet.address, spender.address)).to.equal(300n);
      expect(await token.balanceOf(spender.address)).to.equal(200n);
    });

    it('receipt.gasPrice is the effective gas price: base fee plus tip', async () => {
      const tip = parseUnits('2', 'gwei');
      const tx = await wallet.sendTransaction({ to: SINK, value: 1n, maxFeePerGas: parseUnits('30', 'gwei'), maxPriorityFeePerGas: tip });
      const receipt = (await tx.wait())!;
      const block = (await provider.getBlock(receipt.blockNumber))!;
      expect(receipt.gasPrice).to.equal(block.baseFeePerGas! + tip);
      expect(receipt.fee).to.equal(receipt.gasUsed * receipt.gasPrice);
    });
  });

  describe('events', () => {
    it('several logs in one transaction: indexed topics, data, and log indexes in order', async () => {
      const emitter = await deploy('Emitter');
      const receipt = (await ((await emitter.emitMany(3n)) as ContractTransactionResponse).wait())!;
      expect(receipt.logs.map((l) => l.index)).to.deep.equal([0, 1, 2]);
      const parsed = receipt.logs.map((l) => emitter.interface.parseLog(l)!);
      expect(parsed.map((p) => p.name)).to.deep.equal(['Many', 'Many', 'Many']);
      expect(parsed.map((p) => p.args[0])).to.deep.equal([0n, 1n, 2n]);
    });

    it('a string argument and an anonymous event (no signature topic)', async () => {
      const emitter = await deploy('Emitter');
      const ping = (await ((await emitter.ping(7n, 'hello')) as ContractTransactionResponse).wait())!;
      const parsed = emitter.interface.parseLog(ping.logs[0])!;
      expect(parsed.args.toArray()).to.deep.equal([wallet.address, 7n, 'hello']);
      const anon = (await ((await emitter.anon(99n)) as ContractTransactionResponse).wait())!;
      expect(anon.logs[0].topics).to.deep.equal([]);
      expect(BigInt(anon.logs[0].data)).to.equal(99n);
    });
  });

  describe('reverts', () => {
    let reverter: Dynamic;

    before(async () => {
      reverter = await deploy('Reverter');
    });

    it('surface the reason string and the revert data', async () => {
      try {
        await reverter.failWithReason();
        expect.fail('the call should revert');
      } catch (error) {
        expect(isCallException(error), String(error)).to.equal(true);
        if (!isCallException(error)) return;
        expect(error.reason).to.equal('Reverter: no luck');
        expect(error.data).to.equal(reasonBytes('Reverter: no luck'));
        expect(error.revert?.name).to.equal('Error');
      }
    });

    it('decode a custom error with its arguments', async () => {
      try {
        await reverter.failWithCustomError.staticCall({ from: wallet.address });
        expect.fail('the call should revert');
      } catch (error) {
        expect(isCallException(error), String(error)).to.equal(true);
        if (!isCallException(error)) return;
        expect(error.revert?.name).to.equal('Unauthorized');
        expect([...error.revert!.args]).to.deep.equal([wallet.address, 42n]);
        expect(error.data?.slice(0, 10)).to.equal(reverter.interface.getError('Unauthorized')!.selector);
      }
    });

    it('a revert without data is still a call exception', async () => {
      try {
        await reverter.failBare();
        expect.fail('the call should revert');
      } catch (error) {
        expect(isCallException(error), String(error)).to.equal(true);
        if (!isCallException(error)) return;
        expect(error.data).to.equal('0x');
      }
    });

    it('estimateGas of a reverting call fails with the reason', async () => {
      try {
        await reverter.touch.estimateGas(false);
        expect.fail('the estimate should fail');
      } catch (error) {
        expect(isCallException(error), String(error)).to.equal(true);
        if (!isCallException(error)) return;
        expect(error.reason).to.equal('Reverter: touch refused');
      }
    });

    it('a reverting transaction is mined with status 0, and wait() says so', async () => {
      const tx = (await reverter.touch(false, { gasLimit: 100_000n })) as ContractTransactionResponse;
      try {
        await tx.wait();
        expect.fail('wait() should throw for a failed transaction');
      } catch (error) {
        expect(isCallException(error), String(error)).to.equal(true);
        if (!isCallException(error)) return;
        expect(error.receipt?.status).to.equal(0);
      }
      expect(await reverter.touched()).to.equal(0n);
    });
  });

  describe('estimateGas', () => {
    it('is 21,000 for a plain transfer', async () => {
      expect(await provider.estimateGas({ from: wallet.address, to: SINK, value: 1n })).to.equal(21_000n);
    });

    it('is enough for a call that needs more gas than it uses', async () => {
      const reverter = await deploy('Reverter');
      const gas = await reverter.needsGas.estimateGas(20n);
      const receipt = (await ((await reverter.needsGas(20n, { gasLimit: gas })) as ContractTransactionResponse).wait())!;
      expect(receipt.status).to.equal(1);
      expect(receipt.gasUsed < gas).to.equal(true);
    });
  });

  describe('every transaction type', () => {
    let storage: Dynamic;
    let storageAddress: string;

    before(async () => {
      storage = await deploy('Storage');
      storageAddress = await storage.getAddress();
    });

    it('legacy without EIP-155: receipt type 0, v = 27/28', async () => {
      const raw = await wallet.signTransaction({
        type: 0,
        chainId: 0,
        nonce: await provider.getTransactionCount(wallet.address, 'pending'),
        to: SINK,
        value: 1n,
        gasLimit: 21_000n,
        gasPrice: parseUnits('5', 'gwei'),
      });
      const tx = await provider.broadcastTransaction(raw);
      const receipt = (await tx.wait())!;
      expect(receipt.type).to.equal(0);
      expect(receipt.status).to.equal(1);
      const fetched = (await provider.getTransaction(tx.hash))!;
      // No chainId member on the wire (as geth answers for an unprotected transaction): ethers reads none.
      expect(fetched.chainId ?? 0n).to.equal(0n);
      expect([27, 28]).to.include(fetched.signature.v);
      expect(fetched.signature.networkV).to.equal(null);
    });

    it('legacy with EIP-155: receipt type 0, chain id in v', async () => {
      const tx = await wallet.sendTransaction({ type: 0, to: SINK, value: 1n, gasPrice: parseUnits('5', 'gwei') });
      const receipt = (await tx.wait())!;
      expect(receipt.type).to.equal(0);
      expect(receipt.status).to.equal(1);
      const fetched = (await provider.getTransaction(tx.hash))!;
      expect(fetched.chainId).to.equal(BigInt(CHAIN_ID));
      expect(fetched.signature.networkV).to.be.oneOf([BigInt(CHAIN_ID * 2 + 35), BigInt(CHAIN_ID * 2 + 36)]);
    });

    it('EIP-2930: receipt type 1, the access list round-trips', async () => {
      const accessList = [{ address: storageAddress, storageKeys: [`0x${'00'.repeat(32)}`] }];
      const tx = await wallet.sendTransaction({
        type: 1,
        to: storageAddress,
        data: storage.interface.encodeFunctionData('set', [3n]),
        accessList,
        gasPrice: parseUnits('5', 'gwei'),
      });
      const receipt = (await tx.wait())!;
      expect(receipt.type).to.equal(1);
      expect(receipt.status).to.equal(1);
      expect((await provider.getTransaction(tx.hash))!.accessList).to.deep.equal(accessList);
    });

    it('EIP-1559: receipt type 2', async () => {
      const tx = await wallet.sendTransaction({ type: 2, to: SINK, value: 1n });
      const receipt = (await tx.wait())!;
      expect(receipt.type).to.equal(2);
      expect(receipt.status).to.equal(1);
    });

    it('EIP-7702: receipt type 4, and the authority delegates to the contract (0xef0100 ‖ address)', async () => {
      const authority = Wallet.createRandom(provider);
      const authorization = await authority.authorize({ address: storageAddress, nonce: 0n, chainId: BigInt(CHAIN_ID) });
      const tx = await wallet.sendTransaction({
        type: 4,
        to: authority.address,
        data: storage.interface.encodeFunctionData('set', [88n]),
        authorizationList: [authorization],
      });
      const receipt = (await tx.wait())!;
      expect(receipt.type).to.equal(4);
      expect(receipt.status).to.equal(1);
      expect(await provider.getCode(authority.address)).to.equal(`0xef0100${storageAddress.slice(2).toLowerCase()}`);
      const asAuthority = new Contract(authority.address, storage.interface, provider) as unknown as Dynamic;
      expect(await asAuthority.value()).to.equal(88n);
      const fetched = (await provider.getTransaction(tx.hash))!;
      expect(fetched.authorizationList?.map((a) => getAddress(a.address))).to.deep.equal([storageAddress]);
    });
  });

  it('eth_sendTransaction: a node-held account (JsonRpcSigner) signs and sends', async () => {
    const signer = await provider.getSigner(DEV_ADDRESSES[1]);
    const tx = await signer.sendTransaction({ to: SINK, value: 5n });
    const receipt = (await tx.wait())!;
    expect(receipt.status).to.equal(1);
    expect(receipt.from).to.equal(getAddress(DEV_ADDRESSES[1]));
  });

  it('a node-held account deploys a contract with eth_sendTransaction', async () => {
    const signer = await provider.getSigner(DEV_ADDRESSES[1]);
    const factory = new ContractFactory(C.Storage.abi as InterfaceAbi, C.Storage.bytecode, signer);
    const contract = await factory.deploy();
    await contract.waitForDeployment();
    expect(await provider.getCode(await contract.getAddress())).to.equal(C.Storage.deployedBytecode);
  });

  it('eth_getTransactionByHash: pooled (no block yet), then mined', async () => {
    await rpc(node.url, 'evm_setAutomine', [false]);
    try {
      const sent = await wallet.sendTransaction({ to: SINK, value: 9n });
      const pooled = (await provider.getTransaction(sent.hash))!;
      expect(pooled.blockNumber).to.equal(null);
      expect(pooled.blockHash).to.equal(null);
      expect(pooled.from).to.equal(wallet.address);
      expect(await provider.getTransactionReceipt(sent.hash)).to.equal(null);
      await rpc(node.url, 'evm_mine', []);
      const mined = (await provider.getTransaction(sent.hash))!;
      const receipt = (await provider.getTransactionReceipt(sent.hash))!;
      expect(mined.blockNumber).to.equal(receipt.blockNumber);
      expect(mined.blockHash).to.equal(receipt.blockHash);
      expect(mined.index).to.equal(receipt.index);
      expect(await sent.confirmations()).to.equal(1);
    } finally {
      await rpc(node.url, 'evm_setAutomine', [true]);
    }
  });

  it('getFeeData: a gas price and an EIP-1559 fee cap above the next base fee', async () => {
    const fees = await provider.getFeeData();
    const latest = (await provider.getBlock('latest'))!;
    expect(fees.gasPrice! > 0n).to.equal(true);
    expect(fees.maxFeePerGas! > latest.baseFeePerGas!).to.equal(true);
    expect(fees.maxPriorityFeePerGas! > 0n).to.equal(true);
  });
});
