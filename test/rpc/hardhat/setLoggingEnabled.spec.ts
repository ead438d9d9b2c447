// hardhat_setLoggingEnabled: the shared spec (test/helpers/dev-control-specs.ts), under the Hardhat name.
import { describeSetLoggingEnabled } from '../../helpers/dev-control-specs.js';

describeSetLoggingEnabled('hardhat');
