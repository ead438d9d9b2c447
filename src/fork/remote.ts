import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { publicUrl } from './url.js';

/** How the node talks to the chain it forks. */
export interface RemoteOptions {
  url: string;
  /** extra HTTP headers (a provider's key), sent with every request */
  headers?: Record<string, string>;
  /** tries after the first for a request that failed in a way worth trying again */
  retries: number;
  /** the first wait before trying again, in ms; it doubles with each try (a Retry-After header overrides it) */
  backoffMs: number;
  /** ms one HTTP request may take */
  timeoutMs: number;
  /** most calls in one JSON-RPC batch */
  maxBatch?: number;
}

/** The remote answered a call with a JSON-RPC error that asking again would not change (or retries ran out). */
export class RemoteError extends Error {
  constructor(
    message: string,
    /** the remote's JSON-RPC error code, when it answered with one */
    readonly code?: number,
  ) {
    super(message);
    this.name = 'RemoteError';
  }
}

interface Pending {
  method: string;
  params: unknown[];
  key: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** the last transient failure, reported when the retries run out */
  lastProblem?: string;
}

interface JsonRpcAnswer {
  id?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string; data?: unknown };
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
const DEFAULT_MAX_BATCH = 100;
/** Requests in flight to the remote at once: as many as clients a busy test suite keeps waiting on it. */
const MAX_SOCKETS = 32;
/**
 * How long the first call of a batch waits for others, in ms: the misses of requests that arrive
 * within it share one HTTP request (a request per miss would cost the remote's rate limit more).
 */
const BATCH_WINDOW_MS = 1;
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** Why an HTTP exchange failed, when asking again may help. */
class TransientFailure extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
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
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private scheduled = false;
  /** false once the remote refused a batch: calls then go one per request */
  private batches = true;
  private nextId = 1;
  private readonly agent: HttpAgent;
  private readonly target: URL;
  readonly stats: RemoteStats = { httpRequests: 0, calls: {}, retries: 0 };
  /** the URL without credentials or query: what logs and nodeInfo may show */
  readonly shownUrl: string;

  constructor(private readonly options: RemoteOptions) {
    this.target = new URL(options.url);
    if (this.target.protocol !== 'http:' && this.target.protocol !== 'https:') {
      throw new RemoteError(`the fork URL must be http:// or https://, got ${this.target.protocol}//`);
    }
    this.agent = this.target.protocol === 'https:' ? new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }) : new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS });
    this.shownUrl = publicUrl(options.url);
  }

  /** Calls `method` on the remote; the same call already in flight is not sent twice. */
  call<T>(method: string, params: unknown[]): Promise<T> {
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

  /** Lets go of the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // The misses of every request in progress within the window join the batch.
    setTimeout(() => {
      this.scheduled = false;
      const queue = this.queue;
      this.queue = [];
      const size = this.batches ? (this.options.maxBatch ?? DEFAULT_MAX_BATCH) : 1;
      for (let start = 0; start < queue.length; start += size) void this.send(queue.slice(start, start + size), 0);
    }, BATCH_WINDOW_MS);
  }

  /** Sends `calls` (one batch), trying again what failed transiently, up to the retry budget. */
  private async send(calls: Pending[], attempt: number): Promise<void> {
    let answers: JsonRpcAnswer[];
    const ids = calls.map(() => this.nextId++);
    try {
      answers = await this.exchange(calls, ids);
    } catch (error) {
      if (!(error instanceof TransientFailure)) {
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
    const retry: Pending[] = [];
    calls.forEach((call, i) => {
      const answer = byId.get(ids[i]);
      if (answer === undefined) {
        call.lastProblem = `no answer to ${call.method} in the batch answer`;
        retry.push(call);
      } else if (answer.error !== undefined && answer.error !== null) {
        const { code, message = '' } = answer.error;
        if ((code !== undefined && RATE_LIMITED_CODES.has(code)) || RATE_LIMIT_WORDS.test(message)) {
          call.lastProblem = `rate limited (${code ?? ''} ${message})`.replace(/\s+/g, ' ');
          retry.push(call);
        } else {
          call.reject(new RemoteError(`the fork's remote ${this.shownUrl} refused ${call.method}: ${message} (code ${code})`, code));
        }
      } else if (!('result' in answer)) {
        call.reject(new RemoteError(`the fork's remote ${this.shownUrl} answered ${call.method} with neither a result nor an error`));
      } else {
        call.resolve(answer.result);
      }
    });
    if (retry.length > 0) await this.again(retry, attempt);
  }

  private async again(calls: Pending[], attempt: number, retryAfterMs?: number): Promise<void> {
    if (attempt >= this.options.retries) {
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

  /** One HTTP round trip: the calls as a batch (a lone call as a plain request), their answers in a list. */
  private exchange(calls: Pending[], ids: number[]): Promise<JsonRpcAnswer[]> {
    const messages = calls.map((call, i) => ({ jsonrpc: '2.0', id: ids[i], method: call.method, params: call.params }));
    const body = Buffer.from(JSON.stringify(messages.length === 1 ? messages[0] : messages));
    this.stats.httpRequests++;
    for (const call of calls) this.stats.calls[call.method] = (this.stats.calls[call.method] ?? 0) + 1;
    const send = this.target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        this.target,
        {
          method: 'POST',
          agent: this.agent,
          headers: { ...this.options.headers, 'content-type': 'application/json', 'content-length': body.length },
          timeout: this.options.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', (error) => reject(new TransientFailure(`the connection broke while answering: ${error.message}`)));
          res.on('end', () => {
            try {
              resolve(this.answers(res, Buffer.concat(chunks).toString('utf8')));
            } catch (error) {
              reject(error);
            }
          });
        },
      );
      req.on('timeout', () => req.destroy(new TransientFailure(`no answer within ${this.options.timeoutMs} ms`)));
      // A refused connection or an unknown host is not worth the back-off: nothing serves there.
      req.on('error', (error: NodeJS.ErrnoException) =>
        reject(error instanceof TransientFailure || !UNREACHABLE.has(error.code ?? '') ? (error instanceof TransientFailure ? error : new TransientFailure(error.message)) : new RemoteError(`cannot connect: ${error.message}`)),
      );
      req.end(body);
    });
  }

  private answers(res: IncomingMessage, text: string): JsonRpcAnswer[] {
    const status = res.statusCode ?? 0;
    if (status === 429 || status === 408 || status >= 500) {
      throw new TransientFailure(`HTTP ${status}${text.length > 0 ? `: ${text.slice(0, 200)}` : ''}`, retryAfter(res.headers['retry-after']));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new RemoteError(`HTTP ${status}, not JSON: ${JSON.stringify(text.slice(0, 200))}`);
    }
    if (Array.isArray(parsed)) return parsed as JsonRpcAnswer[];
    if (typeof parsed === 'object' && parsed !== null) return [parsed as JsonRpcAnswer];
    throw new RemoteError(`HTTP ${status}, an answer that is no JSON-RPC response: ${text.slice(0, 200)}`);
  }
}

/** A Retry-After header in ms: seconds, or an HTTP date. */
function retryAfter(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : date - Date.now();
}
