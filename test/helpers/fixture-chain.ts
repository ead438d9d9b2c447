// The deterministic fixture chain: a fixed history on the default dev chain, so that contract examples whose
// results depend on history (block and transaction hashes, receipts, logs, code) are reproducible.
//
// On a node started with `{ mining: false }` it sends, in order, three transactions signed by dev account 0
// (RFC 6979 signatures: the same bytes every time) and mines each into a block of its own with evm_mine at a fixed
// timestamp (genesis + 12 s per block):
//
//   block 1  1 ETH to dev account 1 (type 2, nonce 0) — exactly the eth_sendRawTransaction example's raw tx
//   block 2  deploys EMITTER_INIT (nonce 1) at EMITTER_ADDRESS
//   block 3  calls it (nonce 2): it logs EMITTER_TOPIC with the word 42 as data
//
// Examples marked `"x-fixture": "fixture-chain"` in openrpc.json are replayed against this chain by
// test/fixture-chain/examples.spec.ts.
import { Wallet, getCreateAddress, id as keccakId } from 'ethers';
import { DEV_ADDRESSES, DEV_KEYS, type TestNode } from './node.js';

export const FIXTURE_BLOCK_SECONDS = 12n;
const GWEI = 1_000_000_000n;

export const EMITTER_TOPIC = keccakId('Answered(uint256)');
/** Runtime: LOG1(EMITTER_TOPIC, data = the word 42), then returns that word. */
export const EMITTER_RUNTIME = `0x602a600052` + `7f${EMITTER_TOPIC.slice(2)}` + `60206000a1` + `60206000f3`;
/** Init code: copies the 0x30-byte runtime (which follows these 0x0c bytes) to memory and returns it. */
export const EMITTER_INIT = `0x6030600c60003960306000f3${EMITTER_RUNTIME.slice(2)}`;
export const EMITTER_ADDRESS = getCreateAddress({ from: DEV_ADDRESSES[0], nonce: 1 }).toLowerCase();

interface ScriptedTx {
  label: string;
  nonce: number;
  to: string | null;
  value: bigint;
  data: string;
  gasLimit: bigint;
}

export const FIXTURE_SCRIPT: readonly ScriptedTx[] = [
  { label: '1 ETH from dev account 0 to dev account 1', nonce: 0, to: DEV_ADDRESSES[1], value: 10n ** 18n, data: '0x', gasLimit: 21_000n },
  { label: 'deploy the emitter', nonce: 1, to: null, value: 0n, data: EMITTER_INIT, gasLimit: 100_000n },
  { label: 'call the emitter', nonce: 2, to: EMITTER_ADDRESS, value: 0n, data: '0x', gasLimit: 50_000n },
];

export interface FixtureBlock {
  number: string;
  hash: string;
  timestamp: string;
  /** the raw signed transaction it holds and its hash */
  raw: string;
  txHash: string;
}

export interface FixtureChain {
  genesisHash: string;
  blocks: FixtureBlock[];
}

/** Signs the scripted transactions for `chainId`. */
export async function fixtureTransactions(chainId: bigint): Promise<string[]> {
  const wallet = new Wallet(DEV_KEYS[0]);
  return Promise.all(
    FIXTURE_SCRIPT.map((tx) =>
      wallet.signTransaction({
        type: 2,
        chainId,
        nonce: tx.nonce,
        to: tx.to,
        value: tx.value,
        data: tx.data,
        gasLimit: tx.gasLimit,
        maxFeePerGas: 2n * GWEI,
        maxPriorityFeePerGas: GWEI,
      }),
    ),
  );
}

/** Builds the fixture history on a fresh node started with `{ mining: false }`. */
export async function buildFixtureChain(node: TestNode): Promise<FixtureChain> {
  if ((await node.call('eth_blockNumber', [])) !== '0x0') throw new Error('the fixture chain needs a fresh node');
  const genesis = (await node.call('eth_getBlockByNumber', ['0x0', false]))!;
  const raws = await fixtureTransactions(BigInt(await node.call('eth_chainId', [])));
  const blocks: FixtureBlock[] = [];
  for (const [i, raw] of raws.entries()) {
    const txHash = await node.call('eth_sendRawTransaction', [raw]);
    const timestamp = BigInt(genesis.timestamp) + FIXTURE_BLOCK_SECONDS * BigInt(i + 1);
    await node.call('evm_mine', [`0x${timestamp.toString(16)}`]);
    const block = (await node.call('eth_getBlockByNumber', ['latest', false]))!;
    if (block.number !== `0x${(i + 1).toString(16)}` || block.timestamp !== `0x${timestamp.toString(16)}`) {
      throw new Error(`fixture block ${i + 1} came out as number ${block.number}, timestamp ${block.timestamp}`);
    }
    if (!(block.transactions as string[]).includes(txHash)) throw new Error(`fixture block ${i + 1} lacks ${FIXTURE_SCRIPT[i]!.label}`);
    const receipt = await node.call('eth_getTransactionReceipt', [txHash]);
    if (receipt?.status !== '0x1') throw new Error(`${FIXTURE_SCRIPT[i]!.label} failed in the fixture chain`);
    blocks.push({ number: block.number, hash: block.hash, timestamp: block.timestamp, raw, txHash });
  }
  return { genesisHash: genesis.hash, blocks };
}
