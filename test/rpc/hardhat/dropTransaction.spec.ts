// hardhat_dropTransaction: the shared spec (test/helpers/dev-control-specs.ts), under the Hardhat name.
import { describeDropTransaction } from '../../helpers/dev-control-specs.js';

describeDropTransaction('hardhat');
