/**
 * Pool admission errors. Every rejection is a PoolError carrying its kind and
 * geth's wording, so clients that match on geth's messages (ethers, viem, web3)
 * keep working; the RPC layer gives each kind its code (src/rpc/domain-errors.ts).
 */

/** Machine-readable reason. */
export type PoolErrorKind =
  | 'invalid-transaction'
  | 'type-not-supported'
  | 'invalid-chain-id'
  | 'invalid-sender'
  | 'oversized-data'
  | 'max-initcode-size'
  | 'gas-limit-too-high'
  | 'block-gas-limit'
  | 'tip-above-fee-cap'
  | 'intrinsic-gas'
  | 'floor-data-gas'
  | 'underpriced'
  | 'fee-cap-too-low'
  | 'set-code-empty'
  | 'nonce-too-low'
  | 'insufficient-funds'
  | 'already-known'
  | 'replacement-underpriced'
  | 'pool-full'
  | 'missing-sidecar'
  | 'invalid-blobs'
  | 'chain-replaced';

export class PoolError extends Error {
  constructor(
    readonly kind: PoolErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'PoolError';
  }
}

const err = (kind: PoolErrorKind, message: string): PoolError => new PoolError(kind, message);

/** Error factories, one per rule; messages follow go-ethereum's core/txpool. */
export const PoolErrors = {
  invalidTransaction: (detail: string) => err('invalid-transaction', `invalid transaction: ${detail}`),
  typeNotSupported: () => err('type-not-supported', 'transaction type not supported'),
  invalidChainId: (have: bigint, want: bigint) =>
    err('invalid-chain-id', `invalid chain id for signer: have ${have} want ${want}`),
  invalidSender: () => err('invalid-sender', 'invalid sender'),
  oversizedData: (size: number, limit: number) =>
    err('oversized-data', `oversized data: transaction size ${size}, limit ${limit}`),
  maxInitCodeSize: (size: number, limit: bigint) =>
    err('max-initcode-size', `max initcode size exceeded: code size ${size}, limit ${limit}`),
  gasLimitTooHigh: (cap: bigint, gas: bigint) =>
    err('gas-limit-too-high', `transaction gas limit too high (cap: ${cap}, tx: ${gas})`),
  blockGasLimit: () => err('block-gas-limit', 'exceeds block gas limit'),
  tipAboveFeeCap: () =>
    err('tip-above-fee-cap', 'max priority fee per gas higher than max fee per gas'),
  intrinsicGas: (gas: bigint, needed: bigint) =>
    err('intrinsic-gas', `intrinsic gas too low: gas ${gas}, minimum needed ${needed}`),
  floorDataGas: (gas: bigint, needed: bigint) =>
    err('floor-data-gas', `insufficient gas for floor data gas cost: gas ${gas}, minimum needed ${needed}`),
  underpriced: (feeCap: bigint, min: bigint) =>
    err('underpriced', `transaction underpriced: gas fee cap ${feeCap}, minimum needed ${min}`),
  feeCapTooLow: (address: string, feeCap: bigint, baseFee: bigint) =>
    err(
      'fee-cap-too-low',
      `max fee per gas less than block base fee: address ${address}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`,
    ),
  setCodeEmpty: () => err('set-code-empty', 'set code tx must have at least one authorization tuple'),
  nonceTooLow: (next: bigint, nonce: bigint) =>
    err('nonce-too-low', `nonce too low: next nonce ${next}, tx nonce ${nonce}`),
  insufficientFunds: (balance: bigint, cost: bigint) =>
    err(
      'insufficient-funds',
      `insufficient funds for gas * price + value: balance ${balance}, tx cost ${cost}, overshot ${cost - balance}`,
    ),
  insufficientFundsQueued: (balance: bigint, queued: bigint, cost: bigint) =>
    err(
      'insufficient-funds',
      `insufficient funds for gas * price + value: balance ${balance}, queued cost ${queued}, tx cost ${cost}, overshot ${queued + cost - balance}`,
    ),
  insufficientFundsBumped: (balance: bigint, queued: bigint, bump: bigint) =>
    err(
      'insufficient-funds',
      `insufficient funds for gas * price + value: balance ${balance}, queued cost ${queued}, tx bumped ${bump}, overshot ${queued + bump - balance}`,
    ),
  alreadyKnown: () => err('already-known', 'already known'),
  replacementUnderpriced: () => err('replacement-underpriced', 'replacement transaction underpriced'),
  poolFull: () => err('pool-full', 'txpool is full'),
  missingSidecar: () => err('missing-sidecar', 'missing sidecar in blob transaction'),
  /** Blobs, commitments, proofs and versioned hashes that do not agree (KZG verification failed). */
  invalidBlobs: (detail: string) => err('invalid-blobs', `invalid blobs: ${detail}`),
  /** The chain was reset (anvil_reset) while the transaction waited to be admitted. */
  chainReplaced: () => err('chain-replaced', 'the chain was reset while this transaction was being admitted; send it again'),
} as const;
