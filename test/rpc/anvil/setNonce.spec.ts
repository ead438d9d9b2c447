// anvil_setNonce: the shared spec (test/helpers/state-edit-specs.ts), under the anvil name.
import { describeSetNonce } from '../../helpers/state-edit-specs.js';

describeSetNonce('anvil');
