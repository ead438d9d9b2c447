// hardhat_setCoinbase: the shared spec (test/helpers/dev-control-specs.ts), under the Hardhat name.
import { describeSetCoinbase } from '../../helpers/dev-control-specs.js';

describeSetCoinbase('hardhat');
