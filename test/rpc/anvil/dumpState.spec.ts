// anvil_dumpState: the shared spec (test/helpers/dev-control-specs.ts), under the anvil name.
import { describeNotSupported } from '../../helpers/dev-control-specs.js';

describeNotSupported('anvil', 'dumpState', [], /dumpState is not supported/);
