import { bytesToHex } from '@ethereumjs/util';
import { addressOf, deriveChildKeys, mnemonicSeed } from '../crypto/hd-keys.js';

export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

export interface DevAccount {
  /** lowercase 0x-prefixed address */
  address: string;
  privateKey: Uint8Array;
}

const derived = new Map<string, DevAccount[]>();

/**
 * The accounts at m/44'/60'/0'/0/i of a mnemonic, as anvil and Hardhat derive them. Results are
 * kept for the process (a few ms through OpenSSL; ~0.2 s where Node's OpenSSL lacks secp256k1).
 */
export function deriveAccounts(mnemonic: string, count: number): DevAccount[] {
  const key = `${count}:${mnemonic}`;
  let accounts = derived.get(key);
  if (accounts === undefined) {
    accounts = derive(mnemonic, count);
    derived.set(key, accounts);
  }
  return accounts.map((account) => ({ ...account, privateKey: account.privateKey.slice() }));
}

function derive(mnemonic: string, count: number): DevAccount[] {
  return deriveChildKeys(mnemonicSeed(mnemonic), "m/44'/60'/0'/0", count).map((privateKey) => {
    return { address: bytesToHex(addressOf(privateKey)), privateKey };
  });
}
