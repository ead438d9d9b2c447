// anvil_loadState: the shared spec (test/helpers/dev-control-specs.ts), under the anvil name.
import { describeNotSupported } from '../../helpers/dev-control-specs.js';

describeNotSupported('anvil', 'loadState', ['0x1f8b'], /loadState is not supported/);
