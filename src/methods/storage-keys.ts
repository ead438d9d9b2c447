import { bytesToBigInt, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { toQuantity } from '../format/quantity.js';

/** A storage slot as a 32-byte key: clients send quantities (`0x0`) as often as full words. */
export function storageKey(slot: string): Uint8Array {
  const hex = slot.slice(2);
  return setLengthLeft(hexToBytes(`0x${hex.length % 2 === 1 ? `0${hex}` : hex}`), 32);
}

/** geth's echo of a requested storage key: 32-byte keys in lowercase, anything shorter as a quantity. */
export function requestedKey(slot: string): string {
  const key = storageKey(slot);
  return slot.length === 66 ? bytesToHex(key) : toQuantity(bytesToBigInt(key));
}
