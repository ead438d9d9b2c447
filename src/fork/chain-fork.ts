import type { Block } from '@ethereumjs/block';
import type { StateStore } from '../state/state-store.js';
import type { ForkedBlockStore } from './forked-block-store.js';
import type { ForkHistory } from './fork-history.js';
import type { ForkState } from './fork-state.js';
import type { ForkStore } from './fork-store.js';
import type { RemoteRpc } from './remote.js';

/** What the chain's fork reads and where from: shown by the banner, anvil_nodeInfo and hardhat_metadata. */
export interface ForkInfo {
  /** the remote's URL as it may be shown (no credentials, path or query); undefined offline */
  url?: string;
  number: bigint;
  hash: Uint8Array;
  /** the remote chain's id (the forked chain answers --chain-id when given) */
  remoteChainId: bigint;
  /** where the fork's cache lives; undefined: in memory only */
  cache?: string;
  offline: boolean;
}

/** A forked chain's parts: its stores reading the remote, and the remote itself. */
export interface ChainFork {
  info: ForkInfo;
  base: Block;
  /** the fork block's total difficulty, as the remote reported it (else its difficulty stands in) */
  baseTotalDifficulty?: bigint;
  blocks: ForkedBlockStore;
  state: StateStore;
  forkState: ForkState;
  history: ForkHistory;
  store: ForkStore;
  remote?: RemoteRpc;
}
