// anvil_setCode: the shared spec (test/helpers/state-edit-specs.ts), under the anvil name.
import { describeSetCode } from '../../helpers/state-edit-specs.js';

describeSetCode('anvil');
