// anvil_setMinGasPrice: the shared spec (test/helpers/dev-control-specs.ts), under the anvil name.
import { describeSetMinGasPrice } from '../../helpers/dev-control-specs.js';

describeSetMinGasPrice('anvil');
