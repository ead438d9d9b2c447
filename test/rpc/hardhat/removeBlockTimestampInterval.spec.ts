// hardhat_removeBlockTimestampInterval: the shared spec (test/helpers/dev-control-specs.ts), under the Hardhat name.
import { describeRemoveBlockTimestampInterval } from '../../helpers/dev-control-specs.js';

describeRemoveBlockTimestampInterval('hardhat');
