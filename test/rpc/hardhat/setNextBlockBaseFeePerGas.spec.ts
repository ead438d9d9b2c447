// hardhat_setNextBlockBaseFeePerGas: the shared spec (test/helpers/dev-control-specs.ts), under the Hardhat name.
import { describeSetNextBlockBaseFeePerGas } from '../../helpers/dev-control-specs.js';

describeSetNextBlockBaseFeePerGas('hardhat');
