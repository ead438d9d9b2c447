import { bytesToHex, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { packageVersion } from '../../contract.js';
import type { Handlers, Services } from '../services.js';

/** As the contract documents it: `evm-node/v<package version>`, the same on every machine. */
export const clientVersion = (): string => `evm-node/v${packageVersion()}`;

export function netMethods({ chain, contract }: Pick<Services, 'chain' | 'contract'>): Pick<Handlers,
  'net_version' | 'net_listening' | 'web3_clientVersion' | 'web3_sha3' | 'rpc.discover'
> {
  return {
    net_version: async () => chain.commons.base.chainId().toString(10),
    net_listening: async () => true,
    web3_clientVersion: async () => clientVersion(),
    web3_sha3: async ([data]) => bytesToHex(keccak256(hexToBytes(data as PrefixedHexString))),
    'rpc.discover': async () => contract(),
  };
}
