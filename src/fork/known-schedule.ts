import { Hoodi, Holesky, Mainnet, Sepolia, type ChainConfig } from '@ethereumjs/common';

/**
 * The public chains whose fork schedule the engine holds. A fork of one runs the fork its schedule
 * has active at the fork block — a BPO fork included, whose blob target, maximum and base-fee update
 * fraction no header field shows, yet which price every blob (eth_blobBaseFee, feeHistory's
 * baseFeePerBlobGas) and bound every block's blobs.
 */
const KNOWN_CHAINS: readonly ChainConfig[] = [Mainnet, Sepolia, Holesky, Hoodi];

/** Forks whose blocks carry the same header fields (EIP-7685's requestsHash last): only a schedule tells them apart. */
const REQUESTS_ERA = /^(prague|osaka|bpo\d+)$/;

/**
 * The fork of a block whose header has a requestsHash (Prague or later), where `chainId`'s schedule
 * places one: Prague, Osaka or a BPO fork. Undefined for a chain the engine does not know, or a
 * schedule that disagrees with the header (a local chain that answers a public chain's id).
 */
export function requestsEraFork(chainId: bigint, number: bigint, timestamp: bigint): string | undefined {
  const fork = scheduledFork(chainId, number, timestamp);
  return fork !== undefined && REQUESTS_ERA.test(fork) ? fork : undefined;
}

function scheduledFork(chainId: bigint, number: bigint, timestamp: bigint): string | undefined {
  const chain = KNOWN_CHAINS.find((known) => BigInt(known.chainId) === chainId);
  if (chain === undefined) return undefined;
  let active: string | undefined;
  for (const fork of chain.hardforks) {
    const reached = fork.timestamp != null ? BigInt(fork.timestamp) <= timestamp : fork.block != null && BigInt(fork.block) <= number;
    // A fork the schedule has not placed (block and timestamp null) is not active; the merge's netsplit block is passed by number.
    if (reached) active = fork.name;
  }
  return active;
}
