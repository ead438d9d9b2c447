// hardhat_dumpState: the shared spec (test/helpers/dev-control-specs.ts), under the Hardhat name.
import { describeNotSupported } from '../../helpers/dev-control-specs.js';

describeNotSupported('hardhat', 'dumpState', [], /dumpState is not supported/);
