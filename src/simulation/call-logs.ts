// The logs a simulated call reports, as geth's simulation tracer collects them: the logs of every
// frame that did not fail, in order, and — with traceTransfers — an ERC-7528 Transfer log for each
// ether transfer (transaction value, call value, SELFDESTRUCT), from 0xeeee…eeee. Log indexes run
// across the block and count every log captured, kept or not, as geth's do.
import { bigIntToBytes, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import type { Log } from '../../generated/types.js';
import { toHex } from '../codec/hex.js';
import type { EmittedLog, TraceHooks } from '../tracing/trace-hooks.js';
import { toQuantity } from '../format/quantity.js';

/** keccak256("Transfer(address,address,uint256)") */
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** ERC-7528: the address that stands for ether. */
const ETHER = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';

const word = (bytes: Uint8Array) => bytesToHex(setLengthLeft(bytes, 32));

export interface BlockPosition {
  number: bigint;
  timestamp: bigint;
}

export class CallLogs {
  /** the logs of each open frame, the transaction's first */
  private frames: Log[][] = [];
  private count = 0;
  private txHash = '';
  private txIndex = 0;
  readonly hooks: TraceHooks;

  constructor(
    private readonly block: BlockPosition,
    private readonly traceTransfers: boolean,
  ) {
    this.hooks = {
      onEnter: ({ type, from, to, value }) => {
        this.frames.push([]);
        if (type !== 'DELEGATECALL' && type !== 'CALLCODE' && value !== undefined && value > 0n && this.traceTransfers) {
          this.capture(ETHER, [TRANSFER_TOPIC, word(from.bytes), word(to.bytes)], word(bigIntToBytes(value)));
        }
      },
      onExit: ({ depth, reverted }) => {
        if (depth === 0) {
          if (reverted) this.frames[0] = [];
          return;
        }
        if (this.frames.length <= 1) return;
        const call = this.frames.pop()!;
        if (!reverted) this.frames[this.frames.length - 1].push(...call);
      },
      onLog: (log: EmittedLog) => this.capture(log.address.toString(), log.topics.map(bytesToHex), toHex(log.data)),
    };
  }

  /** Starts the next transaction's logs. */
  reset(txHash: string, txIndex: number): void {
    this.frames = [];
    this.txHash = txHash;
    this.txIndex = txIndex;
  }

  /** The transaction's logs (the block hash to be filled in once the block is built). */
  logs(): Log[] {
    return this.frames[0] ?? [];
  }

  private capture(address: string, topics: string[], data: string): void {
    this.frames[this.frames.length - 1].push({
      address,
      topics,
      data,
      blockNumber: toQuantity(this.block.number),
      transactionHash: this.txHash,
      transactionIndex: toQuantity(this.txIndex),
      blockHash: '',
      blockTimestamp: toQuantity(this.block.timestamp),
      logIndex: toQuantity(this.count++),
      removed: false,
    });
  }
}
