// hardhat_setBalance: the shared spec (test/helpers/state-edit-specs.ts), under the Hardhat name.
import { describeSetBalance } from '../../helpers/state-edit-specs.js';

describeSetBalance('hardhat');
