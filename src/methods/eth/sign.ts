import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { signPersonalMessage } from '../../crypto/message-signing.js';
import { nodeKey } from '../node-accounts.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_sign({ accounts }: Pick<MethodServices, 'accounts'>): Handlers['eth_sign'] {
  return async ([address, data]) => signPersonalMessage(hexToBytes(data as PrefixedHexString), nodeKey(accounts, address));
}
