// anvil_mine: the shared spec (test/helpers/dev-control-specs.ts), under the anvil name.
import { describeMine } from '../../helpers/dev-control-specs.js';

describeMine('anvil');
