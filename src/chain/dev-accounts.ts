import { mnemonicToSeedSync } from 'ethereum-cryptography/bip39/index.js';
import { HDKey } from 'ethereum-cryptography/hdkey.js';
import { bytesToHex, privateToAddress } from '@ethereumjs/util';

export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

export interface DevAccount {
  /** lowercase 0x-prefixed address */
  address: string;
  privateKey: Uint8Array;
}

const derived = new Map<string, DevAccount[]>();

/**
 * The accounts at m/44'/60'/0'/0/i of a mnemonic, as anvil and Hardhat derive them. Derivation
 * costs ~0.3 s (PBKDF2 and one derivation per account), so results are kept for the process.
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
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic));
  return Array.from({ length: count }, (_, i) => {
    const privateKey = root.derive(`m/44'/60'/0'/0/${i}`).privateKey;
    if (privateKey === null) throw new Error(`cannot derive account ${i}`);
    return { address: bytesToHex(privateToAddress(privateKey)), privateKey };
  });
}
