// anvil_setNextBlockBaseFeePerGas: the shared spec (test/helpers/dev-control-specs.ts), under the anvil name.
import { describeSetNextBlockBaseFeePerGas } from '../../helpers/dev-control-specs.js';

describeSetNextBlockBaseFeePerGas('anvil');
