import type { Block, BlockHeader } from '@ethereumjs/block';
import { ConsensusType, Hardfork } from '@ethereumjs/common';
import { bytesToHex, equalsBytes, KECCAK256_RLP_ARRAY } from '@ethereumjs/util';

/** A consensus rule a block breaks, with the header field (or block part) at fault. */
export class BlockRuleError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const fail = (field: string, have: unknown, want: unknown): never => {
  throw new BlockRuleError(field, `have ${String(have)}, want ${String(want)}`);
};

const isProofOfWork = (header: BlockHeader) => header.common.consensusType() === ConsensusType.ProofOfWork;

/**
 * The rules a header must keep with respect to its parent, as geth's consensus engines check them
 * (consensus/ethash and consensus/beacon `verifyHeader`, misc/eip1559, misc/eip4844). The ethash
 * seal is not verified: test chains are sealed with a fake ethash. Each header carries the Common
 * of its own fork, so every parameter is the one in force at that block.
 */
export function checkHeader(header: BlockHeader, parent: BlockHeader): void {
  if (header.number !== parent.number + 1n) fail('number', header.number, parent.number + 1n);
  if (!equalsBytes(header.parentHash, parent.hash())) fail('parentHash', bytesToHex(header.parentHash), bytesToHex(parent.hash()));
  if (header.timestamp <= parent.timestamp) fail('timestamp', header.timestamp, `more than ${parent.timestamp}`);
  const maxExtra = isProofOfWork(header) ? header.common.param('maxExtraDataSize') : 32n;
  if (BigInt(header.extraData.length) > maxExtra) fail('extraData', `${header.extraData.length} bytes`, `at most ${maxExtra}`);
  if (header.gasUsed > header.gasLimit) fail('gasUsed', header.gasUsed, `at most the gas limit ${header.gasLimit}`);
  try {
    header.validateGasLimit(parent);
  } catch (error) {
    throw new BlockRuleError('gasLimit', (error as Error).message);
  }

  if (isProofOfWork(header)) {
    const want = header.ethashCanonicalDifficulty(parent);
    if (header.difficulty !== want) fail('difficulty', header.difficulty, want);
  } else {
    if (header.difficulty !== 0n) fail('difficulty', header.difficulty, 0n);
    if (!equalsBytes(header.nonce, new Uint8Array(8))) fail('nonce', bytesToHex(header.nonce), '0x0000000000000000');
    if (!equalsBytes(header.uncleHash, KECCAK256_RLP_ARRAY)) fail('sha3Uncles', bytesToHex(header.uncleHash), bytesToHex(KECCAK256_RLP_ARRAY));
  }

  const common = header.common;
  if (common.isActivatedEIP(1559)) {
    const first = common.hardforkBlock(Hardfork.London) === header.number;
    const want = first || parent.baseFeePerGas === undefined ? common.param('initialBaseFee') : parent.calcNextBaseFee();
    if (header.baseFeePerGas !== want) fail('baseFeePerGas', header.baseFeePerGas, want);
  }
  if (common.isActivatedEIP(4844)) {
    const want = parent.excessBlobGas === undefined ? 0n : parent.calcNextExcessBlobGas(common);
    if (header.excessBlobGas !== want) fail('excessBlobGas', header.excessBlobGas, want);
    const max = common.getBlobGasSchedule().maxBlobGasPerBlock;
    if ((header.blobGasUsed ?? 0n) > max) fail('blobGasUsed', header.blobGasUsed, `at most ${max}`);
  }
}

/**
 * The merge transition by total difficulty (EIP-3675): proof-of-work blocks only while the parent's
 * total difficulty is below the terminal one, proof-of-stake blocks only on a parent that reached it.
 */
export function checkTotalDifficulty(header: BlockHeader, parentTd: bigint, terminalTd: bigint | undefined): void {
  if (terminalTd === undefined) return;
  if (isProofOfWork(header)) {
    if (parentTd >= terminalTd) fail('difficulty', `a proof-of-work block on a parent of total difficulty ${parentTd}`, `none after the terminal total difficulty ${terminalTd}`);
  } else if (parentTd < terminalTd && header.number > 0n) {
    fail('totalDifficulty', `parent total difficulty ${parentTd}`, `at least the terminal total difficulty ${terminalTd} before a proof-of-stake block`);
  }
}

/**
 * geth's ethash `VerifyUncles`: at most two, each a valid header whose parent is one of the last
 * seven ancestors (but not the block's own parent), neither an ancestor nor included before.
 * `ancestors` runs from the block's parent backwards. (Decoded uncles carry their own fork's Common.)
 */
export function checkUncles(block: Block, ancestors: Block[]): void {
  if (block.uncleHeaders.length === 0) return;
  if (block.uncleHeaders.length > 2) fail('uncles', `${block.uncleHeaders.length} uncles`, 'at most 2');
  const known = new Map<string, BlockHeader>();
  const seen = new Set<string>();
  for (const ancestor of ancestors.slice(0, 7)) {
    known.set(bytesToHex(ancestor.hash()), ancestor.header);
    for (const uncle of ancestor.uncleHeaders) seen.add(bytesToHex(uncle.hash()));
  }
  seen.add(bytesToHex(block.hash()));
  const parentHash = bytesToHex(block.header.parentHash);
  for (const uncle of block.uncleHeaders) {
    const hash = bytesToHex(uncle.hash());
    if (seen.has(hash)) fail('uncles', `uncle ${hash} already included`, 'a new uncle');
    if (known.has(hash)) fail('uncles', `uncle ${hash} is an ancestor`, 'a non-canonical block');
    seen.add(hash);
    const uncleParent = known.get(bytesToHex(uncle.parentHash));
    if (uncleParent === undefined || bytesToHex(uncle.parentHash) === parentHash) {
      fail('uncles', `uncle ${hash} with parent ${bytesToHex(uncle.parentHash)}`, 'a parent among the six ancestors before the parent');
    }
    try {
      checkHeader(uncle, uncleParent!);
    } catch (error) {
      if (error instanceof BlockRuleError) throw new BlockRuleError(`uncle ${hash} ${error.field}`, error.message);
      throw error;
    }
  }
}
