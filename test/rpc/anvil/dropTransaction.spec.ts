// anvil_dropTransaction: the shared spec (test/helpers/dev-control-specs.ts), under the anvil name.
import { describeDropTransaction } from '../../helpers/dev-control-specs.js';

describeDropTransaction('anvil');
