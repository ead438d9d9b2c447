import { randomBytes } from 'node:crypto';

/** A fresh filter or subscription id: 128 random bits as a hex quantity, as geth makes them. */
export function newId(): string {
  return `0x${randomBytes(16).toString('hex').replace(/^0+/, '') || '0'}`;
}

/** The id as stored: lowercase, without leading zeros, so `0x0Ab` finds `0xab`. */
export function normalizeId(id: string): string {
  return `0x${id.slice(2).toLowerCase().replace(/^0+/, '') || '0'}`;
}
