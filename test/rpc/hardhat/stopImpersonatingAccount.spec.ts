// hardhat_stopImpersonatingAccount: the shared spec (test/helpers/dev-impersonation-specs.ts), under the Hardhat name.
import { describeStopImpersonatingAccount } from '../../helpers/dev-impersonation-specs.js';

describeStopImpersonatingAccount('hardhat');
