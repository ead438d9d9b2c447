// anvil_setBalance: the shared spec (test/helpers/state-edit-specs.ts), under the anvil name.
import { describeSetBalance } from '../../helpers/state-edit-specs.js';

describeSetBalance('anvil');
