// anvil_setCoinbase: the shared spec (test/helpers/dev-control-specs.ts), under the anvil name.
import { describeSetCoinbase } from '../../helpers/dev-control-specs.js';

describeSetCoinbase('anvil');
