import { createAddressFromString, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { AnvilSetBalanceParams, AnvilSetCodeParams, AnvilSetNonceParams, AnvilSetStorageAtParams } from '../../../generated/types.js';
import { storageKey } from '../eth/state.js';
import type { Handlers, Services } from '../services.js';
import { inBothDialects } from './dialects.js';

type Deps = Pick<Services, 'stateEdits'>;

/** anvil_setBalance & co. and their hardhat_ names (src/dev/state-edits.ts says how the edits land). */
export function stateEditMethods({ stateEdits }: Deps): Pick<
  Handlers,
  | 'anvil_setBalance'
  | 'hardhat_setBalance'
  | 'anvil_setCode'
  | 'hardhat_setCode'
  | 'anvil_setNonce'
  | 'hardhat_setNonce'
  | 'anvil_setStorageAt'
  | 'hardhat_setStorageAt'
  | 'anvil_addBalance'
> {
  const [anvil_setBalance, hardhat_setBalance] = inBothDialects(([address, balance]: AnvilSetBalanceParams) =>
    stateEdits.setBalance(createAddressFromString(address), BigInt(balance)),
  );
  const [anvil_setCode, hardhat_setCode] = inBothDialects(([address, code]: AnvilSetCodeParams) =>
    stateEdits.setCode(createAddressFromString(address), hexToBytes(code as PrefixedHexString)),
  );
  const [anvil_setNonce, hardhat_setNonce] = inBothDialects(([address, nonce]: AnvilSetNonceParams) =>
    stateEdits.setNonce(createAddressFromString(address), BigInt(nonce)),
  );
  // A storage word is given as a slot is: a quantity or a full word, left-padded to 32 bytes.
  const setStorage = ([address, slot, value]: AnvilSetStorageAtParams) => stateEdits.setStorage(createAddressFromString(address), storageKey(slot), storageKey(value));
  return {
    anvil_addBalance: async ([address, amount]) => {
      await stateEdits.addBalance(createAddressFromString(address), BigInt(amount));
      return null;
    },
    anvil_setBalance,
    hardhat_setBalance,
    anvil_setCode,
    hardhat_setCode,
    anvil_setNonce,
    hardhat_setNonce,
    // Both answer true here.
    anvil_setStorageAt: async (params) => {
      await setStorage(params);
      return true;
    },
    hardhat_setStorageAt: async (params) => {
      await setStorage(params);
      return true;
    },
  };
}
