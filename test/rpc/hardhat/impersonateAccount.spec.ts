// hardhat_impersonateAccount: the shared spec (test/helpers/dev-control-specs.ts), under the Hardhat name.
import { describeImpersonateAccount } from '../../helpers/dev-control-specs.js';

describeImpersonateAccount('hardhat');
