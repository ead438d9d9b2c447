// hardhat_setCode: the shared spec (test/helpers/state-edit-specs.ts), under the Hardhat name.
import { describeSetCode } from '../../helpers/state-edit-specs.js';

describeSetCode('hardhat');
