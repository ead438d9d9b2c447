import WebSocket from 'ws';
import { connectionFailure, parseAnswers } from './remote-http.js';
import { TransientFailure, type Exchange, type JsonRpcAnswer, type JsonRpcMessage, type RemoteOptions } from './remote-protocol.js';

interface Waiting {
  ids: Set<number>;
  answers: JsonRpcAnswer[];
  resolve(answers: JsonRpcAnswer[]): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * JSON-RPC over one WebSocket (ws:// or wss://), opened on first use and again after it closes. A
 * batch's answers may come back as one message or one by one; a batch is done once every id it
 * sent is answered. A connection that drops fails what waits on it as worth trying again.
 */
export class WsExchange implements Exchange {
  private socket?: Promise<WebSocket>;
  private readonly waiting = new Set<Waiting>();

  constructor(
    private readonly target: URL,
    private readonly options: Pick<RemoteOptions, 'headers' | 'timeoutMs'>,
  ) {}

  close(): void {
    void this.socket?.then((socket) => socket.close(), () => {});
    this.socket = undefined;
  }

  async exchange(messages: JsonRpcMessage[]): Promise<JsonRpcAnswer[]> {
    const socket = await this.connected();
    return new Promise((resolve, reject) => {
      const waiting: Waiting = {
        ids: new Set(messages.map((message) => message.id)),
        answers: [],
        resolve,
        reject,
        timer: setTimeout(() => this.fail(waiting, new TransientFailure(`no answer within ${this.options.timeoutMs} ms`)), this.options.timeoutMs),
      };
      this.waiting.add(waiting);
      socket.send(JSON.stringify(messages.length === 1 ? messages[0] : messages), (error) => error && this.fail(waiting, new TransientFailure(error.message)));
    });
  }

  private connected(): Promise<WebSocket> {
    this.socket ??= new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(this.target, { headers: this.options.headers, handshakeTimeout: this.options.timeoutMs });
      socket.once('open', () => resolve(socket));
      socket.once('error', (error: NodeJS.ErrnoException) => reject(connectionFailure(error)));
      socket.on('message', (data: Buffer) => this.answered(data.toString('utf8')));
      socket.once('close', () => {
        this.socket = undefined;
        for (const waiting of [...this.waiting]) this.fail(waiting, new TransientFailure('the WebSocket closed before answering'));
      });
    });
    const socket = this.socket;
    socket.catch(() => {
      if (this.socket === socket) this.socket = undefined;
    });
    return socket;
  }

  private answered(text: string): void {
    let answers: JsonRpcAnswer[];
    try {
      answers = parseAnswers(text, 'a WebSocket message');
    } catch {
      return;
    }
    for (const answer of answers) {
      // A remote that serves no batches answers one error without an id: it answers the oldest batch.
      const anonymous = answer.id === null || answer.id === undefined;
      for (const waiting of this.waiting) {
        if (anonymous) {
          this.waiting.delete(waiting);
          clearTimeout(waiting.timer);
          waiting.resolve([answer]);
          break;
        }
        if (typeof answer.id !== 'number' || !waiting.ids.delete(answer.id)) continue;
        waiting.answers.push(answer);
        if (waiting.ids.size === 0) {
          this.waiting.delete(waiting);
          clearTimeout(waiting.timer);
          waiting.resolve(waiting.answers);
        }
        break;
      }
    }
  }

  private fail(waiting: Waiting, error: Error): void {
    if (!this.waiting.delete(waiting)) return;
    clearTimeout(waiting.timer);
    waiting.reject(error);
  }
}
