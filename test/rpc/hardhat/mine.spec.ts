// hardhat_mine: the shared spec (test/helpers/dev-control-specs.ts), under the Hardhat name.
import { describeMine } from '../../helpers/dev-control-specs.js';

describeMine('hardhat');
