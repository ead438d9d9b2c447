import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { signPersonalMessage } from '../../crypto/message-signing.js';
import { nodeKey } from '../node-accounts.js';
import type { Handlers, MethodServices } from '../services.js';

/** eth_sign's work, with the params in geth's personal_ order. */
export function personal_sign({ accounts }: Pick<MethodServices, 'accounts'>): Handlers['personal_sign'] {
  return async ([data, address]) => signPersonalMessage(hexToBytes(data as PrefixedHexString), nodeKey(accounts, address));
}
