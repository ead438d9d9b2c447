// anvil_setStorageAt: the shared spec (test/helpers/state-edit-specs.ts), under the anvil name.
import { describeSetStorageAt } from '../../helpers/state-edit-specs.js';

describeSetStorageAt('anvil');
