import { expect } from 'chai';
import type { AccountProof } from '../../../generated/types.js';
import { deployStorageContract, hex, STORAGE_SLOTS, transfer } from '../../helpers/activity.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { ProofError, verifyProof } from '../../helpers/proof.js';
import { RpcCallError } from '../../helpers/rpc.js';

/** The EIP-4788 beacon roots contract, part of the dev genesis since Cancun. */
const BEACON_ROOTS = '0x000f3df6d732807ef1319fb7b8bb8522d0beac02';
const NOBODY = '0x00000000000000000000000000000000deadbeef';
const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
const EMPTY_CODE_HASH = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';

describe('eth_getProof', () => {
  let node: TestNode;
  let contract: string;
  /** the block before the contract existed, and the block that deployed it */
  let preDeploy: { number: string; hash: string; stateRoot: string };
  let deployed: { number: string; hash: string; stateRoot: string };

  const blockAt = async (ref: string) => {
    const block = await node.call('eth_getBlockByNumber', [ref, false]);
    if (block === null) throw new Error(`no block ${ref}`);
    return { number: block.number, hash: block.hash, stateRoot: block.stateRoot };
  };

  before(async () => {
    node = await startTestNode();
    await transfer(node, DEV_ADDRESSES[1], 10n ** 18n);
    preDeploy = await blockAt('latest');
    contract = (await deployStorageContract(node)).address;
    deployed = await blockAt('latest');
  });
  after(() => node.destroy());

  it('proves a funded account without code against the latest state root', async () => {
    const proof = await node.call('eth_getProof', [DEV_ADDRESSES[0], [], 'latest']);
    await verifyProof(proof, deployed.stateRoot);
    expect(proof.address).to.equal(DEV_ADDRESSES[0]);
    expect(proof.nonce).to.equal('0x2');
    expect(proof.balance).to.equal(await node.call('eth_getBalance', [DEV_ADDRESSES[0], 'latest']));
    expect(proof.codeHash).to.equal(EMPTY_CODE_HASH);
    expect(proof.storageHash).to.equal(EMPTY_TRIE_ROOT);
  });

  it('proves a contract account with code, and each of its storage slots against its storageHash', async () => {
    const proof = await node.call('eth_getProof', [contract, ['0x0', '0x1', '0x2'], 'latest']);
    await verifyProof(proof, deployed.stateRoot);
    expect(proof.codeHash).to.not.equal(EMPTY_CODE_HASH);
    expect(proof.storageHash).to.not.equal(EMPTY_TRIE_ROOT);
    expect(proof.storageProof!.map((entry) => entry.value)).to.deep.equal(['0x2a', '0xbeef', '0xabc']);
    for (const entry of proof.storageProof!) expect(entry.proof).to.not.be.empty;
  });

  it('proves that a slot never written holds zero', async () => {
    const proof = await node.call('eth_getProof', [contract, ['0x3'], 'latest']);
    await verifyProof(proof, deployed.stateRoot);
    expect(proof.storageProof![0].value).to.equal('0x0');
  });

  it('proves the absence of an account the chain never touched', async () => {
    const proof = await node.call('eth_getProof', [NOBODY, ['0x0'], 'latest']);
    await verifyProof(proof, deployed.stateRoot);
    expect(proof).to.include({ nonce: '0x0', balance: '0x0', codeHash: EMPTY_CODE_HASH, storageHash: EMPTY_TRIE_ROOT });
    expect(proof.storageProof).to.deep.equal([{ key: '0x0', value: '0x0', proof: [] }]);
  });

  it('proves the state at a block number: the contract absent before its deployment', async () => {
    const proof = await node.call('eth_getProof', [contract, ['0x0'], preDeploy.number]);
    await verifyProof(proof, preDeploy.stateRoot);
    expect(proof.codeHash).to.equal(EMPTY_CODE_HASH);
    expect(proof.storageProof![0].value).to.equal('0x0');
  });

  it('proves the state at a block given by its hash', async () => {
    const proof = await node.call('eth_getProof', [contract, ['0x1'], deployed.hash]);
    await verifyProof(proof, deployed.stateRoot);
    expect(BigInt(proof.storageProof![0].value)).to.equal(STORAGE_SLOTS[1]);
    const earlier = await node.call('eth_getProof', [DEV_ADDRESSES[0], [], preDeploy.hash]);
    await verifyProof(earlier, preDeploy.stateRoot);
    expect(earlier.nonce).to.equal('0x1');
  });

  it('proves a genesis system contract at earliest against the genesis state root', async () => {
    const genesis = await blockAt('earliest');
    const proof = await node.call('eth_getProof', [BEACON_ROOTS, ['0x0'], 'earliest']);
    await verifyProof(proof, genesis.stateRoot);
    expect(proof.nonce).to.equal('0x1');
    expect(proof.codeHash).to.not.equal(EMPTY_CODE_HASH);
  });

  it('answers storageProof null when no storage keys are asked for (SPEC 2.3)', async () => {
    const proof = await node.call('eth_getProof', [contract, [], 'latest']);
    expect(proof.storageProof).to.equal(null);
  });

  it('answers one storage proof per key, in request order, each key as requested', async () => {
    const fullWord = `0x${'0'.repeat(63)}1`;
    const proof = await node.call('eth_getProof', [contract, ['0x1', '0x0', fullWord], 'latest']);
    expect(proof.storageProof!.map((entry) => entry.key)).to.deep.equal(['0x1', '0x0', fullWord]);
    expect(proof.storageProof!.map((entry) => entry.value)).to.deep.equal([hex(STORAGE_SLOTS[1]), hex(STORAGE_SLOTS[0]), hex(STORAGE_SLOTS[1])]);
  });

  it('defaults to the latest block when the block is omitted', async () => {
    const proof = await node.call('eth_getProof', [DEV_ADDRESSES[1], []]);
    await verifyProof(proof, deployed.stateRoot);
  });

  it('answers -32000 header not found for a block the chain does not hold', async () => {
    const error = await node.call('eth_getProof', [DEV_ADDRESSES[0], [], '0x3e8']).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(RpcCallError);
    expect(error).to.include({ code: -32000, message: 'header not found' });
  });

  describe('the verifier these tests rely on', () => {
    let genuine: AccountProof;
    before(async () => {
      genuine = await node.call('eth_getProof', [contract, ['0x0'], 'latest']);
    });
    const rejects = async (proof: AccountProof, root: string) => {
      const error = await verifyProof(proof, root).then(() => undefined, (e: unknown) => e);
      expect(error, 'verification should fail').to.be.instanceOf(ProofError);
    };

    it('rejects a proof checked against another state root', () => rejects(genuine, preDeploy.stateRoot));
    it('rejects a claimed balance the proof does not hold', () => rejects({ ...genuine, balance: '0x1' }, deployed.stateRoot));
    it('rejects a claimed slot value the storage proof does not hold', () =>
      rejects({ ...genuine, storageProof: [{ ...genuine.storageProof![0], value: '0x2b' }] }, deployed.stateRoot));
    it('rejects a claim of absence for an account that exists', () =>
      rejects({ ...genuine, accountProof: [], nonce: '0x0', balance: '0x0', codeHash: EMPTY_CODE_HASH, storageHash: EMPTY_TRIE_ROOT }, deployed.stateRoot));
  });
});

// Proofs are kept by state root (methods/eth/getProof.ts, in the answer cache): whatever moves the head's state to another
// root must be proven at that root, not answered from what was kept.
describe('eth_getProof as the head’s state moves', () => {
  let node: TestNode;
  beforeEach(async () => {
    node = await startTestNode();
  });
  afterEach(() => node.destroy());

  it('proves what state edits left on the head, though the same proof was answered before them', async () => {
    const before = await node.call('eth_getProof', [NOBODY, ['0x0'], 'latest']);
    await node.call('anvil_setBalance', [NOBODY, '0x2a']);
    const after = await node.call('eth_getProof', [NOBODY, ['0x0'], 'latest']);
    expect(before.balance).to.equal('0x0');
    expect(after.balance).to.equal('0x2a');
    expect(after.accountProof).not.to.deep.equal(before.accountProof);
  });

  it('proves the state evm_revert went back to', async () => {
    const snapshot = await node.call('evm_snapshot', []);
    const before = await node.call('eth_getProof', [DEV_ADDRESSES[1], [], 'latest']);
    await transfer(node, NOBODY, 1n);
    await node.call('anvil_setBalance', [DEV_ADDRESSES[1], '0x1']);
    expect((await node.call('eth_getProof', [DEV_ADDRESSES[1], [], 'latest'])).balance).to.equal('0x1');
    await node.call('evm_revert', [snapshot]);
    expect(await node.call('eth_getProof', [DEV_ADDRESSES[1], [], 'latest'])).to.deep.equal(before);
  });

  it('proves the genesis state after anvil_reset', async () => {
    const genesis = await node.call('eth_getProof', [DEV_ADDRESSES[0], [], 'latest']);
    await transfer(node, NOBODY, 1n);
    expect((await node.call('eth_getProof', [DEV_ADDRESSES[0], [], 'latest'])).nonce).to.equal('0x1');
    await node.call('anvil_reset', []);
    expect(await node.call('eth_getProof', [DEV_ADDRESSES[0], [], 'latest'])).to.deep.equal(genesis);
  });
});
