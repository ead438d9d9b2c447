import { createAddressFromString, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { RpcMethods } from '../../../generated/methods.js';
import { storageKey } from '../eth/state.js';
import type { Services } from '../services.js';

type Deps = Pick<Services, 'stateEdits'>;

/** anvil_setBalance & co. and their hardhat_ names (src/dev/state-edits.ts says how the edits land). */
export function stateEditMethods({ stateEdits }: Deps): Pick<
  RpcMethods,
  | 'anvil_setBalance'
  | 'hardhat_setBalance'
  | 'anvil_setCode'
  | 'hardhat_setCode'
  | 'anvil_setNonce'
  | 'hardhat_setNonce'
  | 'anvil_setStorageAt'
  | 'hardhat_setStorageAt'
> {
  const setBalance = (address: string, balance: string) => stateEdits.setBalance(createAddressFromString(address), BigInt(balance));
  const setCode = (address: string, code: string) => stateEdits.setCode(createAddressFromString(address), hexToBytes(code as PrefixedHexString));
  const setNonce = (address: string, nonce: string) => stateEdits.setNonce(createAddressFromString(address), BigInt(nonce));
  // A storage word is given as a slot is: a quantity or a full word, left-padded to 32 bytes.
  const setStorage = (address: string, slot: string, value: string) => stateEdits.setStorage(createAddressFromString(address), storageKey(slot), storageKey(value));
  return {
    anvil_setBalance: async ([address, balance]) => {
      await setBalance(address, balance);
      return null;
    },
    hardhat_setBalance: async ([address, balance]) => {
      await setBalance(address, balance);
      return true;
    },
    anvil_setCode: async ([address, code]) => {
      await setCode(address, code);
      return null;
    },
    hardhat_setCode: async ([address, code]) => {
      await setCode(address, code);
      return true;
    },
    anvil_setNonce: async ([address, nonce]) => {
      await setNonce(address, nonce);
      return null;
    },
    hardhat_setNonce: async ([address, nonce]) => {
      await setNonce(address, nonce);
      return true;
    },
    anvil_setStorageAt: async ([address, slot, value]) => {
      await setStorage(address, slot, value);
      return true;
    },
    hardhat_setStorageAt: async ([address, slot, value]) => {
      await setStorage(address, slot, value);
      return true;
    },
  };
}
