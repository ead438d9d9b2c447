import { bytesToHex, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import type { Handlers } from '../services.js';

export function web3_sha3(): Handlers['web3_sha3'] {
  return async ([data]) => bytesToHex(keccak256(hexToBytes(data as PrefixedHexString)));
}
