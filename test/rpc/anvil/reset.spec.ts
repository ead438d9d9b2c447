// anvil_reset: the shared spec (test/helpers/dev-control-specs.ts), under the anvil name.
import { describeReset } from '../../helpers/dev-control-specs.js';

describeReset('anvil');
