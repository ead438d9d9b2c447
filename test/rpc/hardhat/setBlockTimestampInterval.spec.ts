// hardhat_setBlockTimestampInterval: the shared spec (test/helpers/dev-control-specs.ts) — in milliseconds, as viem sends it in hardhat mode.
import { describeSetBlockTimestampInterval } from '../../helpers/dev-control-specs.js';

describeSetBlockTimestampInterval('hardhat');
