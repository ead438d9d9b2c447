// hardhat_getAutomine: the shared spec (test/helpers/dev-control-specs.ts), under the Hardhat name.
import { describeGetAutomine } from '../../helpers/dev-control-specs.js';

describeGetAutomine('hardhat');
