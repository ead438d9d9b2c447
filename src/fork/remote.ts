import { setTimeout as sleep } from 'node:timers/promises';
import { HttpExchange } from './remote-http.js';
import { WsExchange } from './remote-ws.js';
import { RemoteError, TransientFailure, type Exchange, type JsonRpcAnswer, type RemoteOptions } from './remote-protocol.js';
import { publicUrl } from './url.js';

export { RemoteError, type RemoteOptions } from './remote-protocol.js';

interface Pending {
  method: string;
  params: unknown[];
  key: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** the last transient failure, reported when the retries run out */
  lastProblem?: string;
}

/** Counts of what went to the remote: HTTP requests, and calls by method. */
export interface RemoteStats {
  httpRequests: number;
  calls: Record<string, number>;
  retries: number;
}

/** JSON-RPC error codes and words providers use for "too many requests": worth waiting and asking again. */
const RATE_LIMITED_CODES = new Set([-32005, 429]);
const RATE_LIMIT_WORDS = /rate.?limit|too many requests|exceeded.*(capacity|quota|limit)|compute units|throttl/i;
/**
 * How remotes say they do not serve a method: -32601 (geth, anvil), -32004 (Hardhat), or in words,
 * whatever the code — Ganache answers -32700 "The method … does not exist/is not available", and a
 * node that forks itself refuses eth_getProof with -32000 "… is unsupported" (Hardhat) or -32700
 * "… is not supported on a forked network" (Ganache).
 */
const UNSERVED_CODES = new Set([-32601, -32004]);
const UNSERVED_WORDS = /does not exist|is not available|not supported|unsupported|not implemented|method not found/i;
/**
 * How providers refuse a query as too large — a log range or a result count past their limit, not
 * the rate of requests: Infura's -32005 "query returned more than 10000 results", Alchemy's "Log
 * response size exceeded … up to a 2K block range", "block range is too large", "eth_getLogs is
 * limited to a 10,000 range". Asking again later would be refused the same; a smaller query may pass.
 */
const TOO_LARGE_WORDS = /returned more than|response size (?:exceeded|is too)|(?:block )?range (?:is )?too (?:large|wide|big)|limited to (?:a |an? )?[\d,]+ (?:block )?range|too many (?:results|logs|blocks)|exceeds? (?:the )?(?:max(?:imum)? )?(?:block )?range/i;
const DEFAULT_MAX_BATCH = 100;
/**
 * How long the first call of a batch waits for others, in ms: the misses of requests that arrive
 * within it share one HTTP request (a request per miss would cost the remote's rate limit more).
 */
const BATCH_WINDOW_MS = 1;
/**
 * The most eth_getProof calls one request carries; more go out as requests of their own, at once.
 * geth and anvil answer a batch's entries one after another, and a proof is their slowest read
 * (anvil ~8.5 ms each on this machine): a start-up's 21 proofs in one batch took 179 ms.
 */
const PROOFS_PER_REQUEST = 4;

function exchangeFor(options: RemoteOptions): Exchange {
  const target = new URL(options.url);
  if (target.protocol === 'http:' || target.protocol === 'https:') return new HttpExchange(target, options);
  if (target.protocol === 'ws:' || target.protocol === 'wss:') return new WsExchange(target, options);
  throw new RemoteError(`the fork URL must be http(s):// or ws(s)://, got ${target.protocol}//`);
}

/**
 * A JSON-RPC client for the forked chain's node. Calls made in the same turn of the event loop go
 * out as one batch; a call asked for again while the same one is in flight shares its answer. A
 * failure worth trying again (a network error, a timeout, HTTP 429 or 5xx, a rate-limit error in
 * the answer or inside one entry of a batch answer) is tried again after a back-off that doubles,
 * or what Retry-After asks; when the tries run out the call fails with a RemoteError naming the
 * problem — never a made-up answer.
 */
export class RemoteRpc {
  private queue: Pending[] = [];
  private gatherers: (() => void)[] = [];
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private scheduled = false;
  private closed = false;
  /** false once the remote refused a batch: calls then go one per request */
  private batches = true;
  private nextId = 1;
  private transport: Exchange;
  readonly stats: RemoteStats = { httpRequests: 0, calls: {}, retries: 0 };
  /** the URL without credentials or query: what logs and nodeInfo may show */
  shownUrl: string;

  constructor(private options: RemoteOptions) {
    this.transport = exchangeFor(options);
    this.shownUrl = publicUrl(options.url);
  }

  /** The remote's URL and headers. */
  get endpoint(): Pick<RemoteOptions, 'url' | 'headers'> {
    return { url: this.options.url, headers: this.options.headers };
  }

  /**
   * From now on calls go to `url` (another endpoint of the same chain, with its own headers); calls
   * in flight at the old one fail there and are tried again at the new one.
   */
  retarget(url: string, headers: Record<string, string>): void {
    const old = this.transport;
    this.options = { ...this.options, url, headers };
    this.transport = exchangeFor(this.options);
    this.shownUrl = publicUrl(url);
    old.close();
  }

  /** Calls `method` on the remote; the same call already in flight is not sent twice. */
  call<T>(method: string, params: unknown[]): Promise<T> {
    if (this.closed) return Promise.reject(this.closedError(method));
    const key = `${method}:${JSON.stringify(params)}`;
    const running = this.inFlight.get(key);
    if (running !== undefined) return running as Promise<T>;
    const promise = new Promise<unknown>((resolve, reject) => {
      this.queue.push({ method, params, key, resolve, reject });
      this.schedule();
    }).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, promise);
    return promise as Promise<T>;
  }

  /**
   * Lets go of the kept-alive connections; from now on nothing is sent. Calls not answered yet fail
   * (a chain that stopped reading this remote, after a reset or a fork that failed to open, leaves no
   * fetches or retries behind).
   */
  close(): void {
    this.closed = true;
    this.transport.close();
    for (const call of this.queue.splice(0)) call.reject(this.closedError(call.method));
  }

  private closedError(method: string): RemoteError {
    return new RemoteError(`the chain was reset while this request ran (${method} was not sent to the fork's remote ${this.shownUrl}, which the new chain does not read); send it again`);
  }

  /**
   * Calls `gather` when the next batch goes out, just before: what it calls then joins the batch.
   * Callers that gather their misses into fewer calls (a proof of many slots) gather until then,
   * rather than wait a turn of their own first.
   */
  beforeSending(gather: () => void): void {
    this.gatherers.push(gather);
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // The misses of every request in progress within the window join the batch.
    setTimeout(() => {
      for (const gather of this.gatherers.splice(0)) gather();
      this.scheduled = false;
      const queue = this.queue;
      this.queue = [];
      for (const batch of this.batchesOf(queue)) void this.send(batch, 0);
    }, BATCH_WINDOW_MS);
  }

  /** `queue` cut into the requests it goes out as: at most maxBatch calls each, and {@link PROOFS_PER_REQUEST} proofs. */
  private batchesOf(queue: Pending[]): Pending[][] {
    const size = this.batches ? (this.options.maxBatch ?? DEFAULT_MAX_BATCH) : 1;
    const batches: Pending[][] = [];
    let batch: Pending[] = [];
    let proofs = 0;
    for (const call of queue) {
      const proof = call.method === 'eth_getProof';
      if (batch.length === size || (proof && proofs === PROOFS_PER_REQUEST)) {
        batches.push(batch);
        batch = [];
        proofs = 0;
      }
      batch.push(call);
      if (proof) proofs++;
    }
    if (batch.length > 0) batches.push(batch);
    return batches;
  }

  /** Sends `calls` (one batch), trying again what failed transiently, up to the retry budget. */
  private async send(calls: Pending[], attempt: number): Promise<void> {
    if (this.closed) {
      for (const call of calls) call.reject(this.closedError(call.method));
      return;
    }
    let answers: JsonRpcAnswer[];
    const ids = calls.map(() => this.nextId++);
    try {
      this.stats.httpRequests++;
      for (const call of calls) this.stats.calls[call.method] = (this.stats.calls[call.method] ?? 0) + 1;
      answers = await this.transport.exchange(calls.map((call, i) => ({ jsonrpc: '2.0', id: ids[i], method: call.method, params: call.params })));
    } catch (error) {
      if (!(error instanceof TransientFailure)) {
        this.failed(calls, (error as Error).message);
        for (const call of calls) call.reject(new RemoteError(`the fork's remote ${this.shownUrl} failed: ${(error as Error).message}`));
        return;
      }
      for (const call of calls) call.lastProblem = error.message;
      return this.again(calls, attempt, error.retryAfterMs);
    }
    if (calls.length > 1 && answers.length === 1 && (answers[0]?.id === null || answers[0]?.id === undefined) && answers[0]?.error !== undefined) {
      // A remote that serves no batches answers one error for the whole: from now on, one call per request.
      this.batches = false;
      for (const call of calls) void this.send([call], attempt);
      return;
    }
    const byId = new Map<unknown, JsonRpcAnswer>();
    for (const answer of answers) byId.set(answer?.id, answer);
    // An error without our id (a remote that could not read the request, say a path it does not
    // serve) answers the one call sent: it is the remote's word, not a lost answer to try again.
    if (calls.length === 1 && answers.length === 1 && !byId.has(ids[0]) && answers[0]?.error != null) byId.set(ids[0], answers[0]);
    const retry: Pending[] = [];
    calls.forEach((call, i) => {
      const answer = byId.get(ids[i]);
      if (answer === undefined) {
        call.lastProblem = `no answer to ${call.method} in the batch answer`;
        retry.push(call);
      } else if (answer.error !== undefined && answer.error !== null) {
        const { code, message = '' } = answer.error;
        if (TOO_LARGE_WORDS.test(message)) {
          call.reject(new RemoteError(`the fork's remote ${this.shownUrl} refused ${call.method} as too large: ${message} (code ${code})`, code, false, true));
        } else if ((code !== undefined && RATE_LIMITED_CODES.has(code)) || RATE_LIMIT_WORDS.test(message)) {
          call.lastProblem = `rate limited (${code ?? ''} ${message})`.replace(/\s+/g, ' ');
          retry.push(call);
        } else {
          const unserved = (code !== undefined && UNSERVED_CODES.has(code)) || UNSERVED_WORDS.test(message);
          call.reject(new RemoteError(`the fork's remote ${this.shownUrl} refused ${call.method}: ${message} (code ${code})`, code, unserved));
        }
      } else if (!('result' in answer)) {
        call.reject(new RemoteError(`the fork's remote ${this.shownUrl} answered ${call.method} with neither a result nor an error`));
      } else {
        call.resolve(answer.result);
      }
    });
    if (retry.length > 0) await this.again(retry, attempt);
  }

  /** Tells the log, in one line, that `calls` failed for good: the requests waiting on them answer errors, which the text log does not show. */
  private failed(calls: Pending[], why: string): void {
    const counts = new Map<string, number>();
    for (const call of calls) counts.set(call.method, (counts.get(call.method) ?? 0) + 1);
    const names = [...counts].map(([method, count]) => (count === 1 ? method : `${method} x${count}`)).join(', ');
    this.options.warn?.(`the fork's remote ${this.shownUrl} failed ${names} ${why}`);
  }

  private async again(calls: Pending[], attempt: number, retryAfterMs?: number): Promise<void> {
    if (attempt >= this.options.retries) {
      this.failed(calls, `after ${attempt + 1} tries: ${calls[0]?.lastProblem ?? 'no answer'}`);
      for (const call of calls) {
        call.reject(new RemoteError(`the fork's remote ${this.shownUrl} failed ${call.method} after ${attempt + 1} tries: ${call.lastProblem ?? 'no answer'}`));
      }
      return;
    }
    this.stats.retries += calls.length;
    const backoff = this.options.backoffMs * 2 ** attempt;
    await sleep(retryAfterMs === undefined ? backoff : Math.min(Math.max(retryAfterMs, 0), 60_000));
    await this.send(calls, attempt + 1);
  }
}
