// anvil_loadState: the shared spec (test/helpers/state-dump-specs.ts), under the anvil name.
import { describeLoadState } from '../../helpers/state-dump-specs.js';

describeLoadState('anvil');
