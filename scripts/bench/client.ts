// The benchmark's load generator: a keep-alive JSON-RPC client on node:http (cheaper per request
// than fetch, so more of the machine goes to the node), and a bounded closed-loop runner.
import http from 'node:http';

export class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export class RpcClient {
  private readonly agent: http.Agent;
  private readonly target: URL;
  private id = 0;

  /** `timeoutMs`: how long one request may take before it is given up. */
  constructor(
    url: string,
    maxSockets: number,
    private readonly timeoutMs = 120_000,
  ) {
    this.target = new URL(url);
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(this.target.hostname)) {
      throw new Error(`the benchmark only targets loopback addresses, not ${this.target.hostname}`);
    }
  }

  /** The raw response body of one call. */
  post(body: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          agent: this.agent,
          host: this.target.hostname.replace(/^\[|\]$/g, ''),
          port: this.target.port,
          path: this.target.pathname,
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
          res.on('error', reject);
        },
      );
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error('request timed out')));
      req.on('error', reject);
      req.end(body);
    });
  }

  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params });
    let text: string | undefined;
    // A keep-alive connection the node closed just as we reused it: send again on a fresh one (the
    // caller treats `already known` for a resent transaction as the acknowledgement it is).
    for (let attempt = 1; text === undefined; attempt++) {
      try {
        text = await this.post(body);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (attempt >= 3 || !(code === 'ECONNRESET' || code === 'EPIPE' || (error as Error).message === 'socket hang up')) throw error;
      }
    }
    const message = JSON.parse(text) as { result?: T; error?: { code: number; message: string } };
    if (message.error !== undefined) throw new RpcFailure(message.error.code, `${method}: ${message.error.message}`);
    return message.result as T;
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * `concurrency` workers call `request(i)` back to back until `seconds` pass or `maxRequests` are
 * done (after a short warm-up that is not counted); latencies in milliseconds.
 */
export async function closedLoop(
  concurrency: number,
  seconds: number,
  maxRequests: number,
  request: (i: number) => Promise<unknown>,
  warmup = Math.min(200, maxRequests),
): Promise<LoadResult> {
  for (let i = 0; i < warmup; i += concurrency) {
    await Promise.all(Array.from({ length: Math.min(concurrency, warmup - i) }, (_, k) => request(i + k)));
  }
  const latencies: number[] = [];
  let issued = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const worker = async () => {
    while (issued < maxRequests && performance.now() < deadline) {
      const i = issued++;
      const t0 = performance.now();
      await request(i);
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, seconds: elapsed, perSecond: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}
