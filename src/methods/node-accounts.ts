import type { DevAccount } from '../chain/dev-accounts.js';
import { serverError } from '../rpc/errors.js';

/** The node's account `address`, if it holds its key. */
export const nodeAccount = (accounts: readonly DevAccount[], address: string): DevAccount | undefined =>
  accounts.find((a) => a.address === address.toLowerCase());

/** The key of node account `address`; any other address is geth's `unknown account`. */
export function nodeKey(accounts: readonly DevAccount[], address: string): Uint8Array {
  const account = nodeAccount(accounts, address);
  if (account === undefined) throw serverError(`unknown account ${address}`);
  return account.privateKey;
}
