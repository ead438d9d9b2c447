/**
 * The pool's on-disk journal: one entry per pooled tx.
 *   key   = 32-byte tx hash
 *   value = 0x01 (format version) ‖ seq (8 bytes, big-endian) ‖ raw tx bytes
 *        or 0x02 ‖ seq ‖ sender (20 bytes) ‖ raw tx bytes, for a transaction whose signature does
 *           not give its sender (an impersonated account's, see impersonation.ts)
 * Every operation names its encodings ('view' = Uint8Array), so the journal works
 * whatever default encodings the sublevel it lives in was created with.
 * Writes use LevelDB's default options: the write-ahead log survives a kill -9
 * of the process (no fsync needed for that; only an OS crash could lose it).
 */

const FORMAT_V1 = 0x01;
const FORMAT_V2 = 0x02;
const HEADER = 9;
const SENDER_BYTES = 20;

export const VIEW: ViewOptions = { keyEncoding: 'view', valueEncoding: 'view' };

export interface JournalPut {
  type: 'put';
  key: Uint8Array;
  value: Uint8Array;
  keyEncoding: 'view';
  valueEncoding: 'view';
  // The journal db itself; lets the ops be passed to the batch of any ancestor level.
  sublevel?: any;
}

export interface JournalDel {
  type: 'del';
  key: Uint8Array;
  keyEncoding: 'view';
  sublevel?: any;
}

export type JournalOp = JournalPut | JournalDel;

/**
 * The slice of abstract-level (classic-level / memory-level, or a sublevel of
 * either) the pool uses. Keys and values are read and written as Uint8Array.
 */
export interface JournalDb {
  batch(ops: JournalOp[], options: ViewOptions): Promise<void>;
  iterator(options: ViewOptions): AsyncIterable<[unknown, unknown]>;
}

export interface ViewOptions {
  keyEncoding: 'view';
  valueEncoding: 'view';
}

export interface JournalEntry {
  key: Uint8Array;
  seq: number;
  raw: Uint8Array;
  /** recorded only for transactions whose signature does not give it */
  sender?: Uint8Array;
}

export function encodeEntry(seq: number, raw: Uint8Array, sender?: Uint8Array): Uint8Array {
  const senderBytes = sender?.length ?? 0;
  const out = new Uint8Array(HEADER + senderBytes + raw.length);
  out[0] = sender === undefined ? FORMAT_V1 : FORMAT_V2;
  new DataView(out.buffer).setBigUint64(1, BigInt(seq));
  if (sender !== undefined) out.set(sender, HEADER);
  out.set(raw, HEADER + senderBytes);
  return out;
}

/** undefined for values this version cannot read (they are dropped on open). */
export function decodeEntry(value: Uint8Array): Omit<JournalEntry, 'key'> | undefined {
  const version = value[0];
  const senderBytes = version === FORMAT_V2 ? SENDER_BYTES : 0;
  if (value.length <= HEADER + senderBytes || (version !== FORMAT_V1 && version !== FORMAT_V2)) return undefined;
  const seq = Number(new DataView(value.buffer, value.byteOffset, value.byteLength).getBigUint64(1));
  const raw = value.slice(HEADER + senderBytes);
  return version === FORMAT_V2 ? { seq, raw, sender: value.slice(HEADER, HEADER + SENDER_BYTES) } : { seq, raw };
}

export class Journal {
  constructor(readonly db: JournalDb) {}

  putOp(hash: Uint8Array, seq: number, raw: Uint8Array, sender?: Uint8Array): JournalPut {
    return { type: 'put', key: hash, value: encodeEntry(seq, raw, sender), ...VIEW, sublevel: this.db };
  }

  delOp(hash: Uint8Array): JournalDel {
    return { type: 'del', key: hash, keyEncoding: 'view', sublevel: this.db };
  }

  async write(ops: JournalOp[]): Promise<void> {
    if (ops.length > 0) await this.db.batch(ops, VIEW);
  }

  /** Every entry, in key order. Unreadable values come back with seq -1 and are for deletion. */
  async readAll(): Promise<JournalEntry[]> {
    const out: JournalEntry[] = [];
    for await (const [key, value] of this.db.iterator(VIEW)) {
      if (!(key instanceof Uint8Array) || !(value instanceof Uint8Array)) {
        throw new TypeError('txpool journal: the db must honour per-call view encodings');
      }
      const entry = decodeEntry(value);
      out.push(entry ? { key, ...entry } : { key, seq: -1, raw: new Uint8Array() });
    }
    return out;
  }
}
