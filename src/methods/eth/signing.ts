import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { signPersonalMessage, signTypedData } from '../../crypto/message-signing.js';
import { serverError } from '../../rpc/errors.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'accounts'>;

/** Messages signed with the node's accounts (eth_signTransaction lives with submission, which builds transactions). */
export function signingMethods({ accounts }: Deps): Pick<
  Handlers, 'eth_sign' | 'personal_sign' | 'eth_signTypedData_v4'> {
  /** The key of node account `address`; any other address is geth's `unknown account`. */
  const keyOf = (address: string): Uint8Array => {
    const account = accounts.find((a) => a.address === address.toLowerCase());
    if (account === undefined) throw serverError(`unknown account ${address}`);
    return account.privateKey;
  };
  const sign = (address: string, data: string) => signPersonalMessage(hexToBytes(data as PrefixedHexString), keyOf(address));
  return {
    eth_sign: async ([address, data]) => sign(address, data),
    personal_sign: async ([data, address]) => sign(address, data),
    eth_signTypedData_v4: async ([address, typedData]) => signTypedData(typedData, keyOf(address)),
  };
}
