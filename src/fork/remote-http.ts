import { request as httpRequest, Agent as HttpAgent, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { RemoteError, TransientFailure, UNREACHABLE, type Exchange, type JsonRpcAnswer, type JsonRpcMessage, type RemoteOptions } from './remote-protocol.js';

/** Requests in flight to the remote at once: as many as clients a busy test suite keeps waiting on it. */
const MAX_SOCKETS = 32;

/** JSON-RPC over HTTP(S), on kept-alive connections: HTTP 408, 429 and 5xx are worth trying again (Retry-After read). */
export class HttpExchange implements Exchange {
  private readonly agent: HttpAgent;
  /** Where and how every request goes, worked out once: given the URL, Node parses it again for each request. */
  private readonly request: RequestOptions;
  private readonly send: typeof httpRequest;

  constructor(
    target: URL,
    private readonly options: Pick<RemoteOptions, 'headers' | 'timeoutMs'>,
  ) {
    const https = target.protocol === 'https:';
    this.agent = https ? new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }) : new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS });
    this.send = https ? httpsRequest : httpRequest;
    this.request = {
      ...urlToHttpOptions(target),
      method: 'POST',
      agent: this.agent,
      timeout: options.timeoutMs,
    };
  }

  close(): void {
    this.agent.destroy();
  }

  exchange(messages: JsonRpcMessage[]): Promise<JsonRpcAnswer[]> {
    const body = Buffer.from(JSON.stringify(messages.length === 1 ? messages[0] : messages));
    return new Promise((resolve, reject) => {
      const req = this.send(
        { ...this.request, headers: { ...this.options.headers, 'content-type': 'application/json', 'content-length': body.length } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', (error) => reject(new TransientFailure(`the connection broke while answering: ${error.message}`)));
          res.on('end', () => {
            try {
              resolve(answersOf(res, Buffer.concat(chunks).toString('utf8')));
            } catch (error) {
              reject(error);
            }
          });
        },
      );
      req.on('timeout', () => req.destroy(new TransientFailure(`no answer within ${this.options.timeoutMs} ms`)));
      req.on('error', (error: NodeJS.ErrnoException) => reject(connectionFailure(error)));
      req.end(body);
    });
  }
}

/** A failed connection: worth trying again, but for one nothing serves (refused, unknown host). */
export function connectionFailure(error: NodeJS.ErrnoException): Error {
  if (error instanceof TransientFailure) return error;
  return UNREACHABLE.has(error.code ?? '') ? new RemoteError(`cannot connect: ${error.message}`) : new TransientFailure(error.message);
}

function answersOf(res: IncomingMessage, text: string): JsonRpcAnswer[] {
  const status = res.statusCode ?? 0;
  if (status === 429 || status === 408 || status >= 500) {
    throw new TransientFailure(`HTTP ${status}${text.length > 0 ? `: ${text.slice(0, 200)}` : ''}`, retryAfter(res.headers['retry-after']));
  }
  return parseAnswers(text, `HTTP ${status}`);
}

/** The answers in a JSON-RPC response (one answer, or a batch of them). */
export function parseAnswers(text: string, what: string): JsonRpcAnswer[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new RemoteError(`${what}, not JSON: ${JSON.stringify(text.slice(0, 200))}`);
  }
  if (Array.isArray(parsed)) return parsed as JsonRpcAnswer[];
  if (typeof parsed === 'object' && parsed !== null) return [parsed as JsonRpcAnswer];
  throw new RemoteError(`${what}, an answer that is no JSON-RPC response: ${text.slice(0, 200)}`);
}

/** A Retry-After header in ms: seconds, or an HTTP date. */
function retryAfter(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : date - Date.now();
}
