// anvil_getAutomine: the shared spec (test/helpers/dev-control-specs.ts), under the anvil name.
import { describeGetAutomine } from '../../helpers/dev-control-specs.js';

describeGetAutomine('anvil');
