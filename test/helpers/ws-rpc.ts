// A minimal JSON-RPC client over WebSocket for tests: calls with results checked against the
// contract, and subscription notifications checked against its SubscriptionNotification schema.
import AjvModule from 'ajv';
import { expect } from 'chai';
import WebSocket from 'ws';
import { resultError, type MethodName, type RpcMethods } from '../../generated/index.js';
import { loadContract } from '../../src/contract.js';
import { recordError, recordExchange } from './declared-errors.js';
import { RpcCallError } from './rpc.js';

type Params<M extends MethodName> = Parameters<RpcMethods[M]>[0];
type Result<M extends MethodName> = Awaited<ReturnType<RpcMethods[M]>>;

const Ajv = AjvModule.default;
let notificationSchema: ((value: unknown) => boolean) & { errors?: unknown } | undefined;

/** The contract's SubscriptionNotification schema, compiled once. */
function checkNotification(message: unknown): void {
  if (notificationSchema === undefined) {
    const ajv = new Ajv({ strict: false, validateFormats: false, logger: false });
    ajv.addSchema({ ...loadContract(), $id: 'openrpc' });
    notificationSchema = ajv.compile({ $ref: 'openrpc#/components/schemas/SubscriptionNotification' });
  }
  if (!notificationSchema(message)) {
    expect.fail(`notification outside the contract: ${JSON.stringify(notificationSchema.errors)}\n${JSON.stringify(message).slice(0, 1000)}`);
  }
}

export const wsUrl = (httpUrl: string) => httpUrl.replace(/^http/, 'ws');

export class WsRpc {
  private nextId = 1;
  private readonly pending = new Map<number, { method: string; resolve(v: unknown): void; reject(e: Error): void }>();
  private readonly byId = new Map<string, unknown[]>();
  private readonly waiters: Array<() => void> = [];
  /** ids of subscriptions whose eth_subscribe reply has arrived */
  private readonly known = new Set<string>();
  /** notifications that arrived before the reply naming their subscription */
  readonly early: unknown[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.onMessage(JSON.parse(data.toString()) as Record<string, unknown>));
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    socket.on('error', () => undefined);
  }

  static async connect(url: string, options: WebSocket.ClientOptions = {}): Promise<WsRpc> {
    const socket = new WebSocket(wsUrl(url), options);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new WsRpc(socket);
  }

  private onMessage(message: Record<string, unknown>): void {
    if (message.method === 'eth_subscription') {
      checkNotification(message);
      const { subscription, result } = message.params as { subscription: string; result: unknown };
      if (!this.known.has(subscription)) this.early.push(message);
      const list = this.byId.get(subscription) ?? [];
      list.push(result);
      this.byId.set(subscription, list);
      for (const wake of this.waiters.splice(0)) wake();
      return;
    }
    const waiter = this.pending.get(message.id as number);
    if (waiter === undefined) return;
    this.pending.delete(message.id as number);
    const error = message.error as { code: number; message: string; data?: unknown } | undefined;
    if (error !== undefined) {
      recordError(waiter.method, error.code, error.message);
      waiter.reject(new RpcCallError(error.code, error.message, error.data));
      return;
    }
    // Known from the moment its reply is read: a notification in the same chunk comes right after.
    if (waiter.method === 'eth_subscribe') this.known.add(message.result as string);
    waiter.resolve(message.result);
  }

  /** Sends a request; the result must match the contract. */
  async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
    const id = this.nextId++;
    const answer = new Promise<unknown>((resolve, reject) => this.pending.set(id, { method, resolve, reject }));
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    const result = await answer;
    const problem = resultError(method, result);
    if (problem !== null) throw new Error(`${method} answered outside its contract: ${problem}`);
    return result as Result<M>;
  }

  /** Sends raw text and answers the parsed reply. */
  async raw(text: string): Promise<unknown> {
    const reply = new Promise<unknown>((resolve) => this.socket.once('message', (data) => resolve(JSON.parse(data.toString()))));
    this.socket.send(text);
    const answer = await reply;
    recordExchange(text, answer);
    return answer;
  }

  /** Notifications received so far for `subscription`. */
  received(subscription: string): unknown[] {
    return this.byId.get(subscription) ?? [];
  }

  /** Waits until `subscription` has at least `count` notifications. */
  async waitFor(subscription: string, count: number, timeoutMs = 10_000): Promise<unknown[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received(subscription).length < count) {
      if (Date.now() > deadline) expect.fail(`${subscription}: ${this.received(subscription).length} of ${count} notifications after ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.received(subscription);
  }

  /** Stops reading the TCP socket, as a client too busy to read: the kernel's buffers fill, then the node's. */
  stopReading(): void {
    this.tcp.pause();
  }

  resumeReading(): void {
    this.tcp.resume();
  }

  private get tcp(): { pause(): void; resume(): void } {
    return (this.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    this.socket.close();
    await this.closed;
  }
}
