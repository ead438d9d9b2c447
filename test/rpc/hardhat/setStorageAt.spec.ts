// hardhat_setStorageAt: the shared spec (test/helpers/state-edit-specs.ts), under the Hardhat name.
import { describeSetStorageAt } from '../../helpers/state-edit-specs.js';

describeSetStorageAt('hardhat');
