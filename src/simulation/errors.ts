// eth_simulateV1's errors, with the codes execution-apis gives them (geth's internal/ethapi/errors.go).

export const SimulateErrorCode = {
  NonceTooLow: -38010,
  NonceTooHigh: -38011,
  BaseFeeTooLow: -38012,
  IntrinsicGas: -38013,
  InsufficientFunds: -38014,
  BlockGasLimitReached: -38015,
  BlockNumberInvalid: -38020,
  BlockTimestampInvalid: -38021,
  MaxInitCodeSizeExceeded: -38025,
  ClientLimitExceeded: -38026,
  InvalidParams: -32602,
  /** geth's code for a transaction that cannot be included for a reason the list above does not name (a nonce at its maximum, say) */
  Unclassified: -32603,
  /** a call's own failure in the EVM (reported in its result, never as the request's error) */
  VmError: -32015,
} as const;

/** Why a simulation cannot be answered, with its execution-apis code. */
export class SimulationError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'SimulationError';
  }
}
