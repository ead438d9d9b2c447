// hardhat_reset: the shared spec (test/helpers/dev-control-specs.ts), under the Hardhat name.
import { describeReset } from '../../helpers/dev-control-specs.js';

describeReset('hardhat');
