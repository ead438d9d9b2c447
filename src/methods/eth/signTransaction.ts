import { bytesToHex } from '@ethereumjs/util';
import { serverError } from '../../rpc/errors.js';
import { nodeAccount } from '../node-accounts.js';
import { draftOf } from '../transaction-requests.js';
import type { Handlers, MethodServices } from '../services.js';

export function eth_signTransaction({ chain, pool, executor, nextBlock, accounts }: Pick<MethodServices, 'chain' | 'pool' | 'executor' | 'nextBlock' | 'accounts'>): Handlers['eth_signTransaction'] {
  return async ([request]) => {
    const account = nodeAccount(accounts, request.from);
    if (account === undefined) throw serverError(`unknown account ${request.from}`);
    const draft = await draftOf({ chain, pool, executor, nextBlock }, request);
    const nonce = draft.nonce ?? (await pool.pendingNonce(request.from.toLowerCase()));
    return bytesToHex(draft.make(nonce, { key: account.privateKey }).raw);
  };
}
