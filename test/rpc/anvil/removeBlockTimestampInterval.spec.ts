// anvil_removeBlockTimestampInterval: the shared spec (test/helpers/dev-control-specs.ts), under the anvil name.
import { describeRemoveBlockTimestampInterval } from '../../helpers/dev-control-specs.js';

describeRemoveBlockTimestampInterval('anvil');
