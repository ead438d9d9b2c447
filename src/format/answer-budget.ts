// How large an answer may grow: the bytes of its result's JSON, at most --max-response-bytes. What
// the caller can make unboundedly large (a trace, a simulation) counts its JSON as it is built and
// stops there, so nothing past the limit is ever held in memory; every other result is measured
// once serialised (rpc/envelope.ts).

/** Bytes of JSON an answer holds by default: a trace of ~300,000 opcodes with their stacks. */
export const DEFAULT_MAX_ANSWER_BYTES = 128 * 1024 * 1024;
/** The longest string V8 holds (2^29 - 24 characters): no larger answer could be serialised at all. */
export const MAX_ANSWER_BYTES = 2 ** 29 - 24;

/** An answer refused for its size (geth's -32003 "response too large"), naming the limit and how to ask for less. */
export class AnswerTooLarge extends Error {
  constructor(
    readonly limit: number,
    what: string,
    advice?: string,
  ) {
    super(`response too large: ${what} passed ${limit} bytes of JSON, this node's --max-response-bytes${advice === undefined ? '' : `; ${advice}`}`);
    this.name = 'AnswerTooLarge';
  }
}

/** The bytes one answer has spent of its limit, counted by whoever builds it. */
export class AnswerBudget {
  private spent = 0;

  constructor(
    readonly limit: number,
    /** what the answer is, for the refusal ("the trace") */
    private readonly what: string,
    private readonly advice?: string,
  ) {}

  /** Counts `bytes` more of the answer's JSON. */
  add(bytes: number): void {
    this.spent += bytes;
  }

  get used(): number {
    return this.spent;
  }

  /** Whether the answer has passed its limit: whoever builds it should stop. */
  get exhausted(): boolean {
    return this.spent > this.limit;
  }

  refusal(): AnswerTooLarge {
    return new AnswerTooLarge(this.limit, this.what, this.advice);
  }

  /** Throws the refusal once the answer has passed its limit. */
  check(): void {
    if (this.exhausted) throw this.refusal();
  }
}
