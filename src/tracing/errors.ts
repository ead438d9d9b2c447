/**
 * Why a trace could not be made, in geth's words: the transaction or block is unknown, the genesis
 * has no parent state, the tracer's options conflict, it ran out of time. Answered as -32000.
 */
export class TraceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TraceError';
  }
}
