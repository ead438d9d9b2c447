// anvil_impersonateAccount: the shared spec (test/helpers/dev-control-specs.ts), under the anvil name.
import { describeImpersonateAccount } from '../../helpers/dev-control-specs.js';

describeImpersonateAccount('anvil');
