// What the remote client and its transports share: the options, the messages and the failures.

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
  /** hears of calls that failed for good (the tries spent, or the remote unreachable): the node's log */
  warn?: (message: string) => void;
}

/** The remote answered a call with a JSON-RPC error that asking again would not change (or retries ran out). */
export class RemoteError extends Error {
  constructor(
    message: string,
    /** the remote's JSON-RPC error code, when it answered with one */
    readonly code?: number,
    /** the remote said it does not serve the method (not that this call failed) */
    readonly unserved = false,
    /** the remote refused the query as too large (a log range, a result count): a smaller one may pass */
    readonly tooLarge = false,
  ) {
    super(message);
    this.name = 'RemoteError';
  }
}

export interface JsonRpcAnswer {
  id?: unknown;
  result?: unknown;
  error?: { code?: number; message?: string; data?: unknown };
}

/** A JSON-RPC message sent to the remote. */
export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id: number;
  method: string;
  params: unknown[];
}

/** How messages reach the remote and its answers come back: over HTTP, or over a WebSocket. */
export interface Exchange {
  /** Sends the messages (one batch; a lone one as a plain request) and answers the remote's answers. */
  exchange(messages: JsonRpcMessage[]): Promise<JsonRpcAnswer[]>;
  close(): void;
}


/** Connection errors not worth the back-off: nothing serves there. */
export const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** Why an exchange failed, when asking again may help. */
export class TransientFailure extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
