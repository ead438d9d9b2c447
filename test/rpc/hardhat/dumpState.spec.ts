// hardhat_dumpState: the shared spec (test/helpers/state-dump-specs.ts), under the Hardhat name.
import { describeDumpState } from '../../helpers/state-dump-specs.js';

describeDumpState('hardhat');
