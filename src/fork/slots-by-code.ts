import { bytesToHex } from '@ethereumjs/util';

/** Slots remembered per code hash: the most recent ones (a contract's fixed slots recur; a mapping's keys fall out). */
const SLOTS_PER_CODE = 32;
const CODES = 4096;
const ACCOUNTS = 100_000;

/**
 * Which slots contracts of each code were read at: a contract of the same code (another pair of a
 * DEX, another vault, a token's clone) is read at the same fixed slots, so its first miss can fetch
 * them all in one proof instead of one round trip per slot.
 */
export class SlotsByCode {
  private codeOf = new Map<string, string>();
  private readonly slots = new Map<string, Map<string, Uint8Array>>();
  /** Accounts whose first miss was given their kin's slots. */
  private given = new Set<string>();

  /** `address` (at the fork's blocks) runs the code whose hash is `codeHash`. */
  codeIs(address: Uint8Array, codeHash: Uint8Array): void {
    if (this.codeOf.size >= ACCOUNTS) this.codeOf = new Map();
    this.codeOf.set(bytesToHex(address), bytesToHex(codeHash));
  }

  /** `slot` of `address` was read: remembered for its code. */
  touched(address: Uint8Array, slot: Uint8Array): void {
    const code = this.codeOf.get(bytesToHex(address));
    if (code === undefined) return;
    let slots = this.slots.get(code);
    if (slots === undefined) {
      if (this.slots.size >= CODES) this.slots.delete(this.slots.keys().next().value as string);
      slots = new Map();
      this.slots.set(code, slots);
    }
    const key = bytesToHex(slot);
    slots.delete(key);
    slots.set(key, slot);
    if (slots.size > SLOTS_PER_CODE) slots.delete(slots.keys().next().value as string);
  }

  /**
   * The slots contracts of `address`'s code were read at, for its first miss; none after that. By
   * then the slots of its code that are missing are its own misses, fetched or on their way: asked
   * again with each later miss, the slots in flight were fetched again, ~10 of them with each cold
   * read of a token's holders 16 at a time.
   */
  firstMissOf(address: Uint8Array): Uint8Array[] {
    const key = bytesToHex(address);
    const code = this.codeOf.get(key);
    if (code === undefined || this.given.has(key)) return [];
    if (this.given.size >= ACCOUNTS) this.given = new Set();
    this.given.add(key);
    return [...(this.slots.get(code)?.values() ?? [])];
  }
}
