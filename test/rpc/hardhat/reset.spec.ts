// hardhat_reset: the shared spec (test/helpers/dev-reset-specs.ts), under the Hardhat name.
import { describeReset } from '../../helpers/dev-reset-specs.js';

describeReset('hardhat');
