// RLP.decode answers any nesting of lists and byte strings. A record the node wrote has a known
// shape; these read it as that shape, and refuse one of another shape with an error that names the
// record, so no decoded value is cast to the type it is hoped to have.
import type { NestedUint8Array } from '@ethereumjs/rlp';

export type RlpItem = Uint8Array | NestedUint8Array;

/** `item` as a list of `length` items (any length when undefined). */
export function rlpList(item: RlpItem | undefined, what: string, length?: number): RlpItem[] {
  if (item === undefined || item instanceof Uint8Array) throw new Error(`${what}: an RLP list was expected`);
  if (length !== undefined && item.length !== length) throw new Error(`${what}: ${length} fields were expected, it has ${item.length}`);
  return item;
}

export function rlpBytes(item: RlpItem | undefined, what: string): Uint8Array {
  if (!(item instanceof Uint8Array)) throw new Error(`${what}: an RLP byte string was expected`);
  return item;
}

/** `item` as a list of byte strings. */
export function rlpBytesList(item: RlpItem | undefined, what: string): Uint8Array[] {
  return rlpList(item, what).map((field) => rlpBytes(field, what));
}
