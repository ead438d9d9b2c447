// anvil_setBlockTimestampInterval: the shared spec (test/helpers/dev-control-specs.ts).
import { describeSetBlockTimestampInterval } from '../../helpers/dev-control-specs.js';

describeSetBlockTimestampInterval('anvil');
