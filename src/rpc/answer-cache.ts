// Answers kept for reuse, in one place. An answer made from something that never changes under a
// version (a block under its hash, a state under its root, the pool under its version) is made once
// per method, version and params, and handed out again while it is kept: formatted and serialised
// once (shared-results.ts), so a client polling the head or the pool costs a copy, not a format.
import type { MethodResults } from '../../generated/methods.js';
import { CACHE_LIMITS, LruCache } from '../caches.js';
import { sharedResult } from './shared-results.js';

/** The methods whose answers are kept. */
export type KeptMethod = keyof typeof CACHE_LIMITS.answers;
type Kept<M extends KeptMethod> = NonNullable<MethodResults[M]> & object;

export class AnswerCache {
  private readonly kept = new Map<KeptMethod, LruCache<string, object>>();

  /**
   * `method`'s answer for `params` under `version`: the one kept, else `make`'s, kept from then on
   * (the least recently asked for go first, past the method's bound in CACHE_LIMITS.answers). A kept
   * answer is shared between requests: never change one.
   */
  answer<M extends KeptMethod>(method: M, version: string | number, params: string, make: () => Kept<M> | Promise<Kept<M>>): Kept<M> | Promise<Kept<M>> {
    let answers = this.kept.get(method);
    if (answers === undefined) {
      answers = new LruCache(CACHE_LIMITS.answers[method]);
      this.kept.set(method, answers);
    }
    const key = `${version} ${params}`;
    // A kept answer is handed back as it is, not through a promise of its own: polling the head or the pool is the common case.
    return (answers.get(key) as Kept<M> | undefined) ?? keep(answers, key, make);
  }
}

async function keep<T extends object>(answers: LruCache<string, object>, key: string, make: () => T | Promise<T>): Promise<T> {
  const made = sharedResult(await make());
  answers.set(key, made);
  return made;
}
