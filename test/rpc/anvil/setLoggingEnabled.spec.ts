// anvil_setLoggingEnabled: the shared spec (test/helpers/dev-control-specs.ts), under the anvil name.
import { describeSetLoggingEnabled } from '../../helpers/dev-control-specs.js';

describeSetLoggingEnabled('anvil');
