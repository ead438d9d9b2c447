// hardhat_setMinGasPrice: the shared spec (test/helpers/dev-control-specs.ts), under the Hardhat name.
import { describeSetMinGasPrice } from '../../helpers/dev-control-specs.js';

describeSetMinGasPrice('hardhat');
