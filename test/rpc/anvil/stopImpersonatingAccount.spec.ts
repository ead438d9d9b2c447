// anvil_stopImpersonatingAccount: the shared spec (test/helpers/dev-control-specs.ts), under the anvil name.
import { describeStopImpersonatingAccount } from '../../helpers/dev-control-specs.js';

describeStopImpersonatingAccount('anvil');
