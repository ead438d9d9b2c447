// hardhat_impersonateAccount: the shared spec (test/helpers/dev-impersonation-specs.ts), under the Hardhat name.
import { describeImpersonateAccount } from '../../helpers/dev-impersonation-specs.js';

describeImpersonateAccount('hardhat');
