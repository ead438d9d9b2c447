import type { BatchOp, Section } from '../storage/database.js';

/**
 * The pool's on-disk journal: one entry per pooled tx.
 *   key   = 32-byte tx hash
 *   value = 0x01 (format version) ‖ seq (8 bytes, big-endian) ‖ raw tx bytes
 *        or 0x02 ‖ seq ‖ sender (20 bytes) ‖ raw tx bytes, for a transaction whose signature does
 *           not give its sender (an impersonated account's, see impersonation.ts)
 * Every operation names its section, so the ops go into any batch on the root database (a block's).
 * Writes use LevelDB's default options: the write-ahead log survives a kill -9
 * of the process (no fsync needed for that; only an OS crash could lose it).
 */

const FORMAT_V1 = 0x01;
const FORMAT_V2 = 0x02;
const HEADER = 9;
const SENDER_BYTES = 20;

/** A journal write: a put or delete on the journal's section, which a block's batch on the root database may carry too. */
export type JournalOp = BatchOp;

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
  constructor(readonly db: Section) {}

  putOp(hash: Uint8Array, seq: number, raw: Uint8Array, sender?: Uint8Array): JournalOp {
    return { type: 'put', key: hash, value: encodeEntry(seq, raw, sender), sublevel: this.db };
  }

  delOp(hash: Uint8Array): JournalOp {
    return { type: 'del', key: hash, sublevel: this.db };
  }

  async write(ops: JournalOp[]): Promise<void> {
    if (ops.length > 0) await this.db.db.batch(ops);
  }

  /** Every entry, in key order. Unreadable values come back with seq -1 and are for deletion. */
  async readAll(): Promise<JournalEntry[]> {
    const out: JournalEntry[] = [];
    for await (const [key, value] of this.db.iterator()) {
      const entry = decodeEntry(value);
      out.push(entry ? { key, ...entry } : { key, seq: -1, raw: new Uint8Array() });
    }
    return out;
  }
}
