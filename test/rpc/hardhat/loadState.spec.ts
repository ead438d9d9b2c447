// hardhat_loadState: the shared spec (test/helpers/state-dump-specs.ts), under the Hardhat name.
import { describeLoadState } from '../../helpers/state-dump-specs.js';

describeLoadState('hardhat');
