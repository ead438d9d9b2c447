// Why eth_simulateV1 cannot answer, by kind; the RPC layer gives each kind the code execution-apis
// gives it (geth's internal/ethapi/errors.go), in src/rpc/domain-errors.ts.

export type SimulationErrorKind =
  | 'nonce-too-low'
  | 'nonce-too-high'
  | 'base-fee-too-low'
  | 'intrinsic-gas'
  | 'insufficient-funds'
  | 'block-gas-limit-reached'
  | 'block-number-invalid'
  | 'block-timestamp-invalid'
  | 'max-init-code-size-exceeded'
  | 'client-limit-exceeded'
  | 'invalid-params'
  /** a call the node refuses as geth's eth_call does (conflicting fee fields, another chain id) */
  | 'refused'
  /** a transaction that cannot be included for a reason the kinds above do not name (a nonce at its maximum, say) */
  | 'unclassified';

export class SimulationError extends Error {
  constructor(
    readonly kind: SimulationErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'SimulationError';
  }
}
