// A Hardhat-style test fixture with ethers, as hardhat-network-helpers' loadFixture runs one: deploy
// once and snapshot; each test reverts to the snapshot (which uses it up) and snapshots again, then
// sends transactions and waits for their receipts. Every round must start from the fixture's state.
// (How fast the loop runs is measured by `npm run bench`, not here.)
import { expect } from 'chai';
import { Contract, ContractFactory, JsonRpcProvider, type JsonRpcSigner } from 'ethers';
import { contracts } from '../helpers/contracts.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../helpers/node.js';

const ROUNDS = 50;
const SUPPLY = 1_000_000n;

describe('a Hardhat-style fixture loop with ethers', function () {
  this.timeout(120_000);
  let node: TestNode;
  let provider: JsonRpcProvider;
  let owner: JsonRpcSigner;

  beforeEach(async () => {
    node = await startTestNode();
    provider = new JsonRpcProvider(node.url, 31337, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 20 });
    owner = await provider.getSigner(DEV_ADDRESSES[0]);
  });
  afterEach(async () => {
    provider.destroy();
    await node.destroy();
  });

  /** loadFixture: the first call deploys and snapshots; later calls revert to the snapshot and take a new one. */
  function fixtureLoader() {
    let snapshot: string | undefined;
    let token: Contract | undefined;
    return async (): Promise<Contract> => {
      if (snapshot === undefined) {
        const { abi, bytecode } = contracts().Token;
        const deployed = await new ContractFactory(abi as never, bytecode, owner).deploy('Fixture', 'FIX', SUPPLY);
        await deployed.waitForDeployment();
        token = deployed as Contract;
      } else {
        expect(await provider.send('evm_revert', [snapshot])).to.equal(true);
      }
      snapshot = await provider.send('evm_snapshot', []);
      return token!;
    };
  }

  it(`runs ${ROUNDS} rounds of revert → transfer → receipt, each from the fixture's state`, async () => {
    const loadFixture = fixtureLoader();
    const first = await loadFixture();
    const fixtureBlock = await provider.getBlockNumber();
    for (let round = 0; round < ROUNDS; round++) {
      const token = await loadFixture();
      expect(await token.getAddress()).to.equal(await first.getAddress());
      expect(await provider.getBlockNumber(), `round ${round}`).to.equal(fixtureBlock);
      expect(await token.balanceOf(DEV_ADDRESSES[1])).to.equal(0n);
      const tx = await (token.connect(owner) as Contract).transfer(DEV_ADDRESSES[1], BigInt(round + 1));
      const receipt = await tx.wait();
      expect(receipt?.status).to.equal(1);
      expect(receipt?.blockNumber).to.equal(fixtureBlock + 1);
      expect(await token.balanceOf(DEV_ADDRESSES[1])).to.equal(BigInt(round + 1));
    }
  });

  it('keeps ethers’ nonce bookkeeping right across reverts: every round’s transaction takes the fixture’s nonce', async () => {
    const loadFixture = fixtureLoader();
    await loadFixture();
    const nonce = await provider.getTransactionCount(DEV_ADDRESSES[0]);
    for (let round = 0; round < 5; round++) {
      await loadFixture();
      const tx = await owner.sendTransaction({ to: DEV_ADDRESSES[2], value: 1n });
      expect(tx.nonce).to.equal(nonce);
      await tx.wait();
    }
  });

  it('plain snapshot → send → wait → revert rounds leave the chain where it started', async () => {
    const start = await provider.getBlock('latest');
    for (let round = 0; round < 10; round++) {
      const id = await provider.send('evm_snapshot', []);
      await (await owner.sendTransaction({ to: DEV_ADDRESSES[2], value: 1n })).wait();
      expect(await provider.send('evm_revert', [id])).to.equal(true);
    }
    expect((await provider.getBlock('latest'))?.hash).to.equal(start?.hash);
    expect(await provider.getBalance(DEV_ADDRESSES[2])).to.equal(10_000n * 10n ** 18n);
  });
});
