import { signTypedData } from '../../crypto/message-signing.js';
import { nodeKey } from '../node-accounts.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_signTypedData_v4({ accounts }: Pick<MethodServices, 'accounts'>): Handlers['eth_signTypedData_v4'] {
  return async ([address, typedData]) => signTypedData(typedData, nodeKey(accounts, address));
}
