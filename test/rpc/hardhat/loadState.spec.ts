// hardhat_loadState: the shared spec (test/helpers/dev-control-specs.ts), under the Hardhat name.
import { describeNotSupported } from '../../helpers/dev-control-specs.js';

describeNotSupported('hardhat', 'loadState', ['0x1f8b'], /loadState is not supported/);
