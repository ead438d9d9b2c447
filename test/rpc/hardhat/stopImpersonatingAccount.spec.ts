// hardhat_stopImpersonatingAccount: the shared spec (test/helpers/dev-control-specs.ts), under the Hardhat name.
import { describeStopImpersonatingAccount } from '../../helpers/dev-control-specs.js';

describeStopImpersonatingAccount('hardhat');
