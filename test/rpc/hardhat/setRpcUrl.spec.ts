// hardhat_setRpcUrl: the shared spec (test/helpers/dev-control-specs.ts), under the Hardhat name.
import { describeNotSupported } from '../../helpers/dev-control-specs.js';

describeNotSupported('hardhat', 'setRpcUrl', ['http://127.0.0.1:8546'], /forking is not supported/);
