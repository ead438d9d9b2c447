import { packageVersion } from '../contract.js';

/** As the contract documents it: `evm-node/v<package version>`, the same on every machine (web3_clientVersion, hardhat_metadata). */
export const clientVersion = (): string => `evm-node/v${packageVersion()}`;
