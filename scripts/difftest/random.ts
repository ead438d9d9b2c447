// A seeded stream of numbers (xorshift32), so a failing case is named by its seed and made again.

export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }
  /** A float in [0, 1). */
  next(): number {
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state / 2 ** 32;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) out[i] = this.int(256);
    return out;
  }
  /** A 256-bit word, skewed towards the values where arithmetic changes (0, 1, small, 2^255, all ones). */
  word(): bigint {
    switch (this.int(8)) {
      case 0:
        return 0n;
      case 1:
        return BigInt(this.int(40));
      case 2:
        return (1n << 256n) - 1n - BigInt(this.int(4));
      case 3:
        return 1n << BigInt(this.int(256));
      case 4:
        return (1n << 255n) + BigInt(this.int(4));
      default: {
        let value = 0n;
        for (const byte of this.bytes(1 + this.int(32))) value = (value << 8n) | BigInt(byte);
        return value;
      }
    }
  }
}
