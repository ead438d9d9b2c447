// anvil_reset: the shared spec (test/helpers/dev-reset-specs.ts), under the anvil name.
import { describeReset } from '../../helpers/dev-reset-specs.js';

describeReset('anvil');
