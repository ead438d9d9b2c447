import { createAddressFromString } from '@ethereumjs/util';
import type { RpcMethods } from '../../../generated/methods.js';
import type { Services } from '../services.js';

type Deps = Pick<Services, 'impersonation'>;

/** Sending from addresses without their keys (src/txpool/impersonation.ts says how such transactions are signed). */
export function impersonationMethods({ impersonation }: Deps): Pick<
  RpcMethods,
  | 'anvil_impersonateAccount'
  | 'hardhat_impersonateAccount'
  | 'anvil_stopImpersonatingAccount'
  | 'hardhat_stopImpersonatingAccount'
  | 'anvil_autoImpersonateAccount'
> {
  return {
    anvil_impersonateAccount: async ([address]) => {
      impersonation.impersonate(createAddressFromString(address));
      return null;
    },
    hardhat_impersonateAccount: async ([address]) => {
      impersonation.impersonate(createAddressFromString(address));
      return true;
    },
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
