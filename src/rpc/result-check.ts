// --check-results: the contract enforced at run time. Every result is checked against its method's
// result schema before it leaves; a violation is logged with the method, the JSON path and the rule,
// counted (GET /health reports the count), and the result still goes out, so a client sees what the
// node produced.
import { resultError, type MethodName } from '../../generated/index.js';
import type { Logger } from '../log.js';

export class ResultCheck {
  private count = 0;

  constructor(private readonly log: Pick<Logger, 'error'>) {}

  /** Results that broke their schema so far. */
  get violations(): number {
    return this.count;
  }

  check(method: MethodName, result: unknown): void {
    const problem = resultError(method, result);
    if (problem === null) return;
    this.count++;
    this.log.error(`--check-results: ${method} answered outside its contract: ${problem}`);
  }
}
