// anvil_impersonateAccount: the shared spec (test/helpers/dev-impersonation-specs.ts), under the anvil name.
import { describeImpersonateAccount } from '../../helpers/dev-impersonation-specs.js';

describeImpersonateAccount('anvil');
