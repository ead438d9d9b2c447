// testing_buildBlockV1: the block that would follow the head, with the payload attributes a
// consensus client would give (geth's miner BuildTestingPayload), built on ephemeral state and
// answered as the engine API carries it. Nothing reaches the chain or the pool.
import type { Block } from '@ethereumjs/block';
import { isBlob4844Tx, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, equalsBytes, hexToBytes, toChecksumAddress, type Address, type PrefixedHexString } from '@ethereumjs/util';
import type { BlockBuilder } from '@ethereumjs/vm';
import type { BuiltPayload, PayloadAttributes } from '../../generated/types.js';
import type { Chain } from '../chain/chain.js';
import { baseFeeAfter } from '../fees/fees.js';
import { toQuantity } from '../format/quantity.js';
import { createChainVM, loadVmLibrary } from '../state/vm.js';
import { decodeTx } from '../txpool/decode.js';
import type { PooledTx } from '../txpool/types.js';

/** Why the payload cannot be built, in geth's words (-32000). */
export class PayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PayloadError';
  }
}

/** EIP-1559's bound on how far one block moves the gas limit, and the least gas limit. */
const GAS_LIMIT_BOUND_DIVISOR = 1024n;
const MIN_GAS_LIMIT = 5000n;
/** The most extra data a header carries. */
const MAX_EXTRA_DATA = 32;

/** geth's CalcGasLimit: the parent's gas limit, moved by at most 1/1024 toward the desired one. */
export function nextGasLimit(parent: bigint, desired: bigint): bigint {
  const delta = parent / GAS_LIMIT_BOUND_DIVISOR - 1n;
  const target = desired < MIN_GAS_LIMIT ? MIN_GAS_LIMIT : desired;
  if (parent < target) return parent + delta > target ? target : parent + delta;
  if (parent > target) return parent - delta < target ? target : parent - delta;
  return parent;
}

export interface PayloadRequest {
  parentHash: Uint8Array;
  attributes: PayloadAttributes;
  /** the signed transactions to include, in order; undefined for the pool's */
  transactions?: Uint8Array[];
  extraData: Uint8Array;
  /** the gas limit the node aims for (--gas-limit) */
  gasCeiling: bigint;
}

interface Candidate {
  tx: TypedTransaction;
  sender: Address;
}

/** Builds the payload; `pooled` gives the pool's executable transactions at a base fee. */
export async function buildPayload(chain: Chain, pooled: (baseFee: bigint) => PooledTx[], request: PayloadRequest): Promise<BuiltPayload> {
  const parent = chain.head();
  if (!equalsBytes(parent.hash(), request.parentHash)) throw new PayloadError('parentHash is not current head');
  if (request.extraData.length > MAX_EXTRA_DATA) throw new PayloadError(`extra data too long: ${request.extraData.length} bytes, at most ${MAX_EXTRA_DATA}`);
  const a = request.attributes;
  const number = parent.header.number + 1n;
  const timestamp = BigInt(a.timestamp);
  const common = chain.commons.at({ number, timestamp });
  const vm = await createChainVM(chain, common, await chain.state.ephemeral(chain.stateRootOf(parent)));
  const baseFee = common.isActivatedEIP(1559) ? baseFeeAfter(parent.header, common) : undefined;
  const { buildBlock } = await loadVmLibrary();
  const builder = await buildBlock(vm, {
    parentBlock: parent,
    headerData: {
      number,
      timestamp,
      coinbase: a.suggestedFeeRecipient as PrefixedHexString,
      mixHash: a.prevRandao as PrefixedHexString,
      extraData: request.extraData,
      gasLimit: nextGasLimit(parent.header.gasLimit, request.gasCeiling),
      baseFeePerGas: baseFee,
      difficulty: 0n,
      parentBeaconBlockRoot: common.isActivatedEIP(4788) ? ((a.parentBeaconBlockRoot as PrefixedHexString | undefined) ?? new Uint8Array(32)) : undefined,
    },
    withdrawals: common.isActivatedEIP(4895)
      ? (a.withdrawals ?? []).map((w) => ({ index: BigInt(w.index), validatorIndex: BigInt(w.validatorIndex), address: w.address as PrefixedHexString, amount: BigInt(w.amount) }))
      : undefined,
    blockOpts: { putBlockIntoBlockchain: false, skipConsensusFormatValidation: true },
  });
  const included: TypedTransaction[] = [];
  if (request.transactions !== undefined) {
    // Every transaction given is included, in order; one that cannot be fails the request.
    for (const raw of request.transactions) {
      const tx = decodeTx(raw, { common, blockGasLimit: parent.header.gasLimit });
      await include(builder, vm.stateManager, { tx, sender: tx.getSenderAddress() });
      included.push(tx);
    }
  } else {
    // The pool's, as the miner takes them: a transaction that does not fit waits, with its sender's later ones.
    const waiting = new Set<string>();
    for (const candidate of pooled(baseFee ?? 0n)) {
      if (waiting.has(candidate.senderHex)) continue;
      try {
        await include(builder, vm.stateManager, candidate);
        included.push(candidate.tx);
      } catch (error) {
        if (!(error instanceof PayloadError)) throw error;
        waiting.add(candidate.senderHex);
      }
    }
  }
  const { block, requests } = await builder.build();
  return {
    executionPayload: executionPayload(block),
    blockValue: toQuantity(builder.minerValue),
    blobsBundle: blobsOf(included),
    executionRequests: (requests ?? []).filter((r) => r.data.length > 0).map((r) => bytesToHex(r.bytes)),
    shouldOverrideBuilder: false,
  };
}

/** Runs `candidate` into the block, or fails with geth's words for a nonce out of turn. */
async function include(
  builder: BlockBuilder,
  state: { getAccount(address: Address): Promise<{ nonce: bigint } | undefined> },
  { tx, sender }: Candidate,
): Promise<void> {
  const nonce = (await state.getAccount(sender))?.nonce ?? 0n;
  const address = toChecksumAddress(sender.toString());
  if (tx.nonce > nonce) throw new PayloadError(`nonce too high: address ${address}, tx: ${tx.nonce} state: ${nonce}`);
  if (tx.nonce < nonce) throw new PayloadError(`nonce too low: address ${address}, tx: ${tx.nonce} state: ${nonce}`);
  try {
    await builder.addTransaction(tx);
  } catch (error) {
    throw new PayloadError((error as Error).message.replace(/ \(vm hf=.*$/s, '').replace(/ -> .*$/s, ''));
  }
}

/** The built block as the engine API carries it (blob transactions without their blobs, which go in the bundle). */
function executionPayload(block: Block): BuiltPayload['executionPayload'] {
  const h = block.header;
  return {
    parentHash: bytesToHex(h.parentHash),
    feeRecipient: h.coinbase.toString(),
    stateRoot: bytesToHex(h.stateRoot),
    receiptsRoot: bytesToHex(h.receiptTrie),
    logsBloom: bytesToHex(h.logsBloom),
    prevRandao: bytesToHex(h.mixHash),
    blockNumber: toQuantity(h.number),
    gasLimit: toQuantity(h.gasLimit),
    gasUsed: toQuantity(h.gasUsed),
    timestamp: toQuantity(h.timestamp),
    extraData: bytesToHex(h.extraData),
    baseFeePerGas: toQuantity(h.baseFeePerGas ?? 0n),
    blockHash: bytesToHex(block.hash()),
    transactions: block.transactions.map((tx) => bytesToHex(tx.serialize())),
    withdrawals: block.withdrawals?.map((w) => ({ index: toQuantity(w.index), validatorIndex: toQuantity(w.validatorIndex), address: w.address.toString(), amount: toQuantity(w.amount) })),
    blobGasUsed: h.blobGasUsed === undefined ? undefined : toQuantity(h.blobGasUsed),
    excessBlobGas: h.excessBlobGas === undefined ? undefined : toQuantity(h.excessBlobGas),
  };
}

/** The blobs, commitments and proofs of the blob transactions the block holds, in order. */
function blobsOf(included: TypedTransaction[]): BuiltPayload['blobsBundle'] {
  const bundle: BuiltPayload['blobsBundle'] = { commitments: [], proofs: [], blobs: [] };
  for (const tx of included) {
    if (!isBlob4844Tx(tx)) continue;
    bundle.commitments.push(...(tx.kzgCommitments ?? []).map((c) => (typeof c === 'string' ? c : bytesToHex(c as Uint8Array))));
    bundle.proofs.push(...(tx.kzgProofs ?? []).map((p) => (typeof p === 'string' ? p : bytesToHex(p as Uint8Array))));
    bundle.blobs.push(...(tx.blobs ?? []).map((b) => (typeof b === 'string' ? b : bytesToHex(b as Uint8Array))));
  }
  return bundle;
}

/** Raw transactions as the method takes them. */
export const rawTransactions = (transactions: string[] | null): Uint8Array[] | undefined =>
  transactions === null ? undefined : transactions.map((raw) => hexToBytes(raw as PrefixedHexString));
