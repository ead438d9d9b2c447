import { createAddressFromString } from '@ethereumjs/util';
import type { AnvilImpersonateAccountParams } from '../../../generated/types.js';
import type { Handlers, Services } from '../services.js';
import { inBothDialects } from './dialects.js';

type Deps = Pick<Services, 'impersonation'>;

/** Sending from addresses without their keys (src/txpool/impersonation.ts says how such transactions are signed). */
export function impersonationMethods({ impersonation }: Deps): Pick<
  Handlers,
  | 'anvil_impersonateAccount'
  | 'hardhat_impersonateAccount'
  | 'anvil_stopImpersonatingAccount'
  | 'hardhat_stopImpersonatingAccount'
  | 'anvil_autoImpersonateAccount'
> {
  const [anvil_impersonateAccount, hardhat_impersonateAccount] = inBothDialects(async ([address]: AnvilImpersonateAccountParams) =>
    impersonation.impersonate(createAddressFromString(address)),
  );
  return {
    anvil_impersonateAccount,
    hardhat_impersonateAccount,
    anvil_stopImpersonatingAccount: async ([address]) => {
      impersonation.stop(createAddressFromString(address));
      return null;
    },
    hardhat_stopImpersonatingAccount: async ([address]) => impersonation.stop(createAddressFromString(address)),
    anvil_autoImpersonateAccount: async ([on]) => {
      impersonation.setAutomatic(on);
      return null;
    },
  };
}
