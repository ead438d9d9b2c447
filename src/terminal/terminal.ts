// What the node prints while it serves, as anvil does: one line per request method (a run of the
// same method folded into one line with a count), each mined transaction with its hash, gas, status
// and revert reason, and Solidity's console.log output — from mined transactions and from
// eth_call / eth_estimateGas. A request costs a comparison or a map update; lines are written when
// the window closes, or before anything else is printed.
import type { Block } from '@ethereumjs/block';
import type { Message } from '@ethereumjs/evm';
import { bytesToHex } from '@ethereumjs/util';
import type { RunTxResult, VM } from '@ethereumjs/vm';
import type { Dispatcher } from '../rpc/dispatch.js';
import { consoleDecoder, isConsoleCall } from './console-log.js';
import { callLogLine, requestLine, transactionLine } from './json-lines.js';
import { failureOf } from './outcome.js';
import { printable } from '../printable.js';

/** How long requests are gathered before their lines are printed. */
const REQUEST_WINDOW_MS = 250;
/** Lines kept in the order of their requests; past them, a method seen earlier in the window adds to its line. */
const ORDERED_LINES = 16;
/** Lines per window at most; requests past them are counted together (a client sending junk names). */
const MAX_LINES = 64;
const MAX_METHOD_NAME = 64;

/** What a mined transaction left for the report: its result and the console.log calls it made. */
interface RunRecord {
  result: RunTxResult;
  logs: Uint8Array[];
}

/** A call request's console.log calls: those of its first run only (eth_estimateGas runs it many times). */
interface CallCapture {
  runs: number;
  logs: Uint8Array[];
}

interface RequestLine {
  method: string;
  count: number;
}

export class Terminal {
  /** The window's request lines, and the last line of each method in it. */
  private lines: RequestLine[] = [];
  private readonly lineOf = new Map<string, RequestLine>();
  private others = 0;
  private timer?: NodeJS.Timeout;
  /** Prints that wait for the console.log decoder, kept in order. */
  private queue: Promise<void> = Promise.resolve();
  private readonly runs = new Map<string, RunRecord>();
  /**
   * The call request whose runs a VM is running, by VM (a VM runs one call at a time). Not an
   * AsyncLocalStorage: Node 20's installs promise hooks for good on first use, and every promise of
   * every request paid for them from the first eth_call on (~10 % of an eth_call's CPU).
   */
  private readonly calls = new WeakMap<VM, CallCapture>();
  private enabled = true;

  /**
   * `windowMs`: how long requests are gathered before their lines are printed; `json`: one JSON
   * object per line instead (json-lines.ts), a line per request with its duration, none folded.
   */
  constructor(
    private readonly write: (text: string) => void,
    private readonly windowMs = REQUEST_WINDOW_MS,
    private readonly json = false,
  ) {}

  /** anvil_setLoggingEnabled / hardhat_setLoggingEnabled: while off, nothing is gathered or printed. */
  setEnabled(on: boolean): void {
    this.enabled = on;
  }

  /** `dispatch`, with each request counted. */
  dispatcher(dispatch: Dispatcher): Dispatcher {
    if (this.json) {
      return (method, params, ctx) => {
        if (!this.enabled) return dispatch(method, params, ctx);
        const started = performance.now();
        const answer = dispatch(method, params, ctx);
        const print = (result: unknown, error: unknown) => this.printLater(() => [requestLine(method, performance.now() - started, result, error)]);
        answer.then((result) => print(result, undefined), (error: unknown) => print(undefined, error));
        return answer;
      };
    }
    return (method, params, ctx) => {
      if (this.enabled) this.request(method);
      return dispatch(method, params, ctx);
    };
  }

  /**
   * Reports each transaction the miner runs once its block lands (`onBlock`), with the console.log
   * calls it made; answers what to show each VM the miner builds blocks on.
   */
  watchMiner(onBlock: (listener: (block: Block) => void) => void): (vm: VM) => void {
    let current: Uint8Array[] = [];
    onBlock((block) => this.blockLanded(block));
    return (vm) => {
      vm.events.on('beforeTx', () => {
        current = [];
      });
      vm.events.on('afterTx', (event) => {
        this.runs.set(bytesToHex(event.transaction.hash()), { result: event, logs: current });
      });
      this.watchConsole(vm, (data) => current.push(data));
    };
  }

  /** Captures console.log calls on a VM that runs eth_call and eth_estimateGas (see {@link callOn}). */
  watchCalls(vm: VM): void {
    // A run is its top message: eth_call runs the message alone, with no transaction around it.
    vm.evm.events?.on('beforeMessage', (message: Message) => {
      if (message.depth !== 0) return;
      const capture = this.calls.get(vm);
      if (capture !== undefined) capture.runs++;
    });
    this.watchConsole(vm, (data) => {
      const capture = this.calls.get(vm);
      if (capture?.runs === 1) capture.logs.push(data);
    });
  }

  /** The runs of the call request `method` start on `vm`; the answer prints their console.log output once they are over. */
  callOn(vm: VM, method: string): () => void {
    if (!this.enabled) return () => undefined;
    const capture: CallCapture = { runs: 0, logs: [] };
    this.calls.set(vm, capture);
    return () => {
      if (this.calls.get(vm) === capture) this.calls.delete(vm);
      if (capture.logs.length === 0) return;
      this.printLater(async () => (this.json ? [callLogLine(method, await this.decode(capture.logs, ''))] : [`    console.log (${method}):`, ...(await this.decode(capture.logs))]));
    };
  }

  /** Prints what is gathered and what waits to be printed. */
  async flush(): Promise<void> {
    this.printLater(() => []);
    await this.queue;
  }

  private watchConsole(vm: VM, seen: (data: Uint8Array) => void): void {
    vm.evm.events?.on('beforeMessage', (message: Message) => {
      if (!isConsoleCall(message.to)) return;
      seen(message.data.slice());
      // Start loading the decoder while the transaction still runs.
      void consoleDecoder();
    });
  }

  private request(method: string): void {
    const last = this.lines.length > 0 ? this.lines[this.lines.length - 1]! : undefined;
    const line = last?.method === method ? last : this.lines.length >= ORDERED_LINES ? this.lineOf.get(method) : undefined;
    if (line !== undefined) {
      line.count++;
    } else if (this.lines.length < MAX_LINES) {
      const added = { method, count: 1 };
      this.lines.push(added);
      this.lineOf.set(method, added);
    } else {
      this.others++;
    }
    if (this.timer === undefined) {
      this.timer = setTimeout(() => this.printLater(() => []), this.windowMs);
      this.timer.unref();
    }
  }

  /** The lines of the requests gathered so far, which are then forgotten. */
  private takeRequests(): string[] {
    clearTimeout(this.timer);
    this.timer = undefined;
    const lines = this.lines.map(({ method, count }) => `${printable(method, MAX_METHOD_NAME)}${count > 1 ? ` ×${count}` : ''}`);
    if (this.others > 0) lines.push(`… and ${this.others} more requests`);
    this.lines = [];
    this.lineOf.clear();
    this.others = 0;
    return lines;
  }

  /**
   * Prints `render`'s lines after everything queued before them, preceded by the requests gathered
   * until now: a transaction's report comes after the request that sent it, and before those that
   * came in while the console.log decoder loaded.
   */
  private printLater(render: () => string[] | Promise<string[]>): void {
    const requests = this.takeRequests();
    this.queue = this.queue
      .then(render)
      .then((lines) => {
        const all = [...requests, ...lines];
        if (all.length > 0) this.write(all.join('\n') + '\n');
      })
      .catch((error: unknown) => this.write(`(the terminal could not print: ${(error as Error).message})\n`));
  }

  private blockLanded(block: Block): void {
    if (!this.enabled) {
      this.runs.clear();
      return;
    }
    const mined: Array<{ hash: string; record: RunRecord }> = [];
    for (const tx of block.transactions) {
      const hash = bytesToHex(tx.hash());
      const record = this.runs.get(hash);
      if (record !== undefined) mined.push({ hash, record });
    }
    // Runs of a block that never landed (its write failed) are not kept for the next.
    this.runs.clear();
    if (mined.length === 0) return;
    if (this.json) {
      this.printLater(() => Promise.all(mined.map(async ({ hash, record }) => transactionLine(block, hash, record.result, await this.decode(record.logs, '')))));
      return;
    }
    this.printLater(async () => {
      const lines: string[] = [];
      for (const { hash, record } of mined) lines.push('', ...(await this.transactionLines(hash, record)));
      const time = new Date(Number(block.header.timestamp) * 1000).toUTCString();
      lines.push('', `    Block Number: ${block.header.number}`, `    Block Hash: ${bytesToHex(block.hash())}`, `    Block Time: ${time}`, '');
      return lines;
    });
  }

  private async transactionLines(hash: string, { result, logs }: RunRecord): Promise<string[]> {
    const failure = failureOf(result);
    const lines = [`    Transaction: ${hash}`];
    if (result.createdAddress !== undefined && failure === undefined) lines.push(`    Contract created: ${result.createdAddress.toString()}`);
    lines.push(`    Gas used: ${result.totalGasSpent}`, `    Status: ${failure === undefined ? '1 (success)' : '0 (failed)'}`);
    if (failure !== undefined) lines.push(`    Error: ${failure}`);
    if (logs.length > 0) lines.push('    console.log:', ...(await this.decode(logs)));
    return lines;
  }

  private async decode(logs: Uint8Array[], indent = '      '): Promise<string[]> {
    if (logs.length === 0) return [];
    const decode = await consoleDecoder();
    return logs.map((data) => `${indent}${decode(data)}`);
  }
}
