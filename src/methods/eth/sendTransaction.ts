import { createAddressFromString } from '@ethereumjs/util';
import { serverError } from '../../rpc/errors.js';
import { nodeAccount } from '../node-accounts.js';
import { draftOf, type Signer } from '../transaction-requests.js';
import type { Handlers, MethodServices, Services } from '../services.js';

/** A node account signs with its key, impersonated or not, so its transactions stay verifiable; an impersonated address signs nothing. */
function signerOf({ accounts, impersonation }: Pick<Services, 'accounts' | 'impersonation'>, from: string): Signer {
  const account = nodeAccount(accounts, from);
  if (account !== undefined) return { key: account.privateKey };
  if (impersonation.covers(createAddressFromString(from))) return { impersonated: true };
  throw serverError(`unknown account ${from}`);
}

export function eth_sendTransaction({ chain, pool, executor, nextBlock, accounts, impersonation, submission }: Pick<MethodServices, 'chain' | 'pool' | 'executor' | 'nextBlock' | 'accounts' | 'impersonation' | 'submission'>): Handlers['eth_sendTransaction'] {
  return async ([request]) => {
    const signer = signerOf({ accounts, impersonation }, request.from);
    const draft = await draftOf({ chain, pool, executor, nextBlock }, request);
    return submission.sendFrom(draft.from, draft.nonce, (nonce) => draft.make(nonce, signer));
  };
}
