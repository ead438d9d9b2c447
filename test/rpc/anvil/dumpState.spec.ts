// anvil_dumpState: the shared spec (test/helpers/state-dump-specs.ts), under the anvil name.
import { describeDumpState } from '../../helpers/state-dump-specs.js';

describeDumpState('anvil');
