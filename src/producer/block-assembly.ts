// Assembling a block: the pool's candidates run one by one on a VM over the parent's state, each
// checked first for what would keep it out of this block (it then waits, and so do its sender's
// later transactions); what passes those checks and still fails to run is a fault, and is logged.
import type { Block } from '@ethereumjs/block';
import { ConsensusType } from '@ethereumjs/common';
import { isBlob4844Tx, type TypedTransaction } from '@ethereumjs/tx';
import type { Address } from '@ethereumjs/util';
import type { BlockBuilder, RunTxResult, VM } from '@ethereumjs/vm';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { baseFeeAfter, feeCap, maxCost } from '../fees/fees.js';
import type { Logger } from '../log.js';
import { loadVmLibrary } from '../state/vm.js';
import type { PooledTx } from '../txpool/types.js';

export interface AssemblyOptions {
  coinbase: Address;
  /** the block's gas limit (evm_setBlockGasLimit); the parent's when unset */
  gasLimit?: bigint;
  /** the block's base fee (anvil_setNextBlockBaseFeePerGas); the parent's successor when unset */
  baseFee?: bigint;
  log: Pick<Logger, 'debug' | 'error'>;
  /** called as each transaction is about to run */
  beforeRun?: (pooled: PooledTx) => void;
}

export interface AssembledBlock {
  block: Block;
  included: PooledTx[];
  results: RunTxResult[];
}

/** Runs `candidates` (in block order) on `vm`, whose state is the parent's, into a new block on `parent`. */
export async function assembleBlock(vm: VM, parent: Block, timestamp: bigint, candidates: readonly PooledTx[], opts: AssemblyOptions): Promise<AssembledBlock> {
  const number = parent.header.number + 1n;
  const common = vm.common;
  common.setHardforkBy({ blockNumber: number, timestamp });
  const postMerge = common.consensusType() === ConsensusType.ProofOfStake;
  const gasLimit = opts.gasLimit ?? parent.header.gasLimit;
  const baseFee = common.isActivatedEIP(1559) ? (opts.baseFee ?? baseFeeAfter(parent.header, common)) : 0n;
  const { buildBlock } = await loadVmLibrary();
  const builder = await buildBlock(vm, {
    parentBlock: parent,
    headerData: {
      number,
      timestamp,
      coinbase: opts.coinbase,
      gasLimit: opts.gasLimit,
      baseFeePerGas: common.isActivatedEIP(1559) ? opts.baseFee : undefined,
      // Post-merge mixHash is prevRandao; derive it from the parent so it varies yet replays the same
      // (with the chain's keccak, native where it loaded, as the block's own hashes are).
      mixHash: postMerge ? (common.customCrypto.keccak256 ?? keccak256)(parent.hash()) : undefined,
      parentBeaconBlockRoot: common.isActivatedEIP(4788) ? new Uint8Array(32) : undefined,
    },
    withdrawals: common.isActivatedEIP(4895) ? [] : undefined,
    blockOpts: { putBlockIntoBlockchain: false, calcDifficultyFromHeader: postMerge ? undefined : parent.header },
  });
  const room: BlockRoom = {
    gasLimit,
    baseFee,
    blobBaseFee: common.isActivatedEIP(4844) ? parent.header.calcNextBlobGasPrice(common) : 0n,
    maxBlobGas: common.isActivatedEIP(4844) ? common.getBlobGasSchedule().maxBlobGasPerBlock : 0n,
    blobGasPerBlob: common.isActivatedEIP(4844) ? common.param('blobGasPerBlob') : 0n,
  };
  const included: PooledTx[] = [];
  const results: RunTxResult[] = [];
  const waiting = new Set<string>();
  for (const pooled of candidates) {
    if (waiting.has(pooled.senderHex)) continue;
    const unfit = await unfitReason(vm, builder, pooled.tx, pooled.sender, room);
    if (unfit !== undefined) {
      opts.log.debug(`${pooled.hashHex} waits: ${unfit}`);
      waiting.add(pooled.senderHex);
      continue;
    }
    try {
      opts.beforeRun?.(pooled);
      results.push(await builder.addTransaction(pooled.tx));
      included.push(pooled);
    } catch (error) {
      opts.log.error(`transaction ${pooled.hashHex} failed to run in block ${number}; it waits`, error instanceof Error ? (error.stack ?? error.message) : error);
      waiting.add(pooled.senderHex);
    }
  }
  const { block } = await builder.build();
  return { block, included, results };
}

/** What the block being built still has room for, and what it charges. */
interface BlockRoom {
  gasLimit: bigint;
  baseFee: bigint;
  blobBaseFee: bigint;
  maxBlobGas: bigint;
  blobGasPerBlob: bigint;
}

/**
 * Why `tx` cannot run next in this block — the state moved on since the pool admitted it, or the
 * block is full — or undefined when it can. The VM would refuse each of these too; checking first
 * tells them from faults.
 */
async function unfitReason(vm: VM, builder: BlockBuilder, tx: TypedTransaction, sender: Address, room: BlockRoom): Promise<string | undefined> {
  if (builder.gasUsed + tx.gasLimit > room.gasLimit) return `gas limit ${tx.gasLimit} past the ${room.gasLimit - builder.gasUsed} the block has left`;
  if (feeCap(tx) < room.baseFee) return `fee cap ${feeCap(tx)} below the base fee ${room.baseFee}`;
  if (isBlob4844Tx(tx)) {
    if (builder.blobGasUsed + BigInt(tx.numBlobs()) * room.blobGasPerBlob > room.maxBlobGas) return 'no blob gas left in the block';
    if (tx.maxFeePerBlobGas < room.blobBaseFee) return `blob fee cap ${tx.maxFeePerBlobGas} below the blob base fee ${room.blobBaseFee}`;
  }
  const account = await vm.stateManager.getAccount(sender);
  const nonce = account?.nonce ?? 0n;
  if (nonce !== tx.nonce) return `its nonce is ${tx.nonce}, the account's ${nonce}`;
  const balance = account?.balance ?? 0n;
  if (balance < maxCost(tx)) return `balance ${balance} below its cost ${maxCost(tx)}`;
  return undefined;
}
