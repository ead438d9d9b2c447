// The chain a node serves, and what replaces it while the node runs: anvil_reset (to a genesis or a fork) and
// anvil_setChainId open another chain in the same data dir and serve it with a new set of services
// (node-services.ts), while what outlives a reset (NodeWide: the database, subscriptions, the logger) stays.
import { randomBytes } from 'node:crypto';
import { bytesToHex } from '@ethereumjs/util';
import { Chain } from './chain/chain.js';
import type { NodeGenesis } from './chain/genesis.js';
import type { ForkConfig, GenesisSettings, NodeConfig } from './config.js';
import type { ForkStore } from './fork/fork-store.js';
import { checkEndpoint } from './fork/open-fork.js';
import { publicUrl } from './fork/url.js';
import type { ForkRequest, Services } from './methods/services.js';
import { devSpec, openFirstChain, openFork, RESUMED_OFFLINE } from './node-chain.js';
import { assembleCore, type ChainCore, type NodeWide } from './node-services.js';

export class ServedChain {
  /** A random 32-byte id of this run of the chain; a reset draws a new one (hardhat_metadata). */
  instanceId = bytesToHex(randomBytes(32));

  private constructor(
    private core: ChainCore,
    /** the settings the served chain was made with (a reset changes them) */
    public settings: NodeConfig,
    /** true when the chain is the dev chain (its accounts' keys may be shown) */
    public devChain: boolean,
    private readonly wide: NodeWide,
  ) {}

  /** Serves `chain`, the one the node started with, under `config`. */
  static async serve(config: NodeConfig, chain: Chain, devChain: boolean, wide: NodeWide): Promise<ServedChain> {
    const mining = { automine: config.mining && config.blockTime === 0, intervalMs: config.mining ? Math.round(config.blockTime * 1000) : 0 };
    return new ServedChain(await assembleCore(config, chain, mining, wide), config, devChain, wide);
  }

  get services(): Services {
    return this.core.services;
  }

  get dispatch(): ChainCore['dispatch'] {
    return this.core.dispatch;
  }

  /**
   * anvil_reset: to the fork `forking` names; with a `forking` that names no remote and no block, a
   * forked chain's fork block again; else to a genesis — the same one, or on a forked chain asked for
   * no fork the dev genesis of the node's settings (anvil and Hardhat leave the fork so).
   */
  reset(genesis?: Partial<GenesisSettings>, forking?: ForkRequest): Promise<void> {
    const forked = this.services.chain.fork !== undefined;
    if (forking?.url !== undefined || forking?.blockNumber !== undefined) return this.resetFork(forking);
    if (genesis !== undefined) return this.resetGenesis(genesis);
    if (forked) return forking === undefined ? this.resetGenesis({}) : this.resetFork({});
    return this.resetGenesis();
  }

  /**
   * Replaces the served chain with the one `make` opens (its settings `next`), and a new set of
   * services serves it. The old chain, pool and filters stop writing first; `make` replaces the
   * data dir's chain in one atomic batch. When it fails the data dir still holds the old chain,
   * which serves again. The old fork's cache stays open until then: a fork of the same block reads
   * it again, as does the old chain serving again — an in-memory cache (--no-fork-cache) holds
   * all it has, and closing it would lose that.
   */
  private async replace(next: NodeConfig, make: (old: Services, kept?: ForkStore) => Promise<Chain>): Promise<void> {
    const { db, log } = this.wide;
    const old = this.core.services;
    const kept = old.chain.fork?.store;
    const mining = { automine: old.mining.isAutomine, intervalMs: old.mining.intervalMs };
    old.mining.stop();
    await old.filters.close();
    let replaced: Chain | undefined;
    try {
      await old.miner.exclusive(() =>
        old.pool.retireAfter(async () => {
          try {
            old.chain.fork?.remote?.close();
            replaced = await make(old, kept);
          } finally {
            old.chain.retire();
          }
        }),
      );
    } finally {
      const chain = replaced ?? (await openFirstChain({ ...this.settings, genesisFlagsGiven: false }, db, undefined, log, kept)).chain;
      if (kept !== undefined && chain.fork?.store !== kept) await kept.close();
      this.core = await assembleCore(replaced === undefined ? this.settings : next, chain, mining, this.wide);
    }
    this.settings = next;
    this.instanceId = bytesToHex(randomBytes(32));
  }

  /** Back to a genesis, the same one or one from new dev genesis settings (Chain.replace). */
  private async resetGenesis(genesis?: Partial<GenesisSettings>): Promise<void> {
    const { db, log } = this.wide;
    const next: NodeConfig = genesis === undefined ? this.settings : { ...this.settings, ...genesis, fork: undefined };
    await this.replace(next, (old) => Chain.replace(db, genesis === undefined ? (old.chain.spec as NodeGenesis) : devSpec(next), [db.pool, db.filters]));
    if (genesis !== undefined) this.devChain = true;
    log.info(`chain reset to genesis ${bytesToHex(this.services.chain.genesis.hash())}`);
  }

  /**
   * anvil_setChainId: the head's state, dumped, becomes the state of the same genesis under `chainId`
   * (Chain.replace, as a reset), then loaded back as one state edit.
   */
  async setChainId(chainId: bigint): Promise<void> {
    const { db, log } = this.wide;
    const state: Uint8Array[] = [];
    for await (const piece of this.services.stateDumps.dump()) state.push(Buffer.from(piece));
    const spec = this.services.chain.spec as NodeGenesis;
    const next = { ...this.settings, chainId };
    await this.replace(next, () => Chain.replace(db, { ...spec, config: { ...spec.config, chainId: Number(chainId) } }, [db.pool, db.filters]));
    // Its transactions were signed for the old id: the dump is this node's own, not another chain's.
    await this.services.stateDumps.load((async function* () {
      yield* state;
    })(), { ownChain: true });
    log.info(`chain id set to ${chainId}: the state moved onto genesis ${bytesToHex(this.services.chain.genesis.hash())}`);
  }

  /**
   * anvil_setRpcUrl: a forked chain reads what it lacks from `url` from now on — another endpoint of
   * the chain it forks (its fork block the same), say one without a rate limit — and keeps its
   * blocks, state and cache, as anvil does. A node that forks nothing forks the URL's head, and a
   * fork served offline the URL at its fork block, as anvil_reset does.
   */
  async setRpcUrl(url: string): Promise<void> {
    const fork = this.services.chain.fork;
    const remote = fork?.remote;
    if (fork === undefined || remote === undefined || this.settings.fork === undefined) return this.reset(undefined, { url, blockNumber: fork?.info.number });
    const headers = url === remote.endpoint.url ? (remote.endpoint.headers ?? {}) : {};
    await checkEndpoint(url, headers, this.settings.fork, fork.info);
    remote.retarget(url, headers);
    fork.info.url = remote.shownUrl;
    this.settings = { ...this.settings, fork: { ...this.settings.fork, url, headers } };
    this.wide.log.info(`the fork reads ${remote.shownUrl} from now on`);
  }

  /**
   * To a fork: the remote (the current fork's unless a URL is given) at a block (the one given, else
   * the remote's head when a URL is given, else the current fork block). A fork of the block the node
   * forks already reads its cache: nothing fetched before is fetched again. The data dir's chain is
   * replaced in the batch that writes the fork block.
   */
  private async resetFork(forking: ForkRequest): Promise<void> {
    const { db, log } = this.wide;
    const { settings } = this;
    const current = this.services.chain.fork;
    const sameRemote = forking.url === undefined || forking.url === settings.fork?.url;
    const fork: ForkConfig = {
      ...(settings.fork ?? RESUMED_OFFLINE),
      url: forking.url ?? settings.fork?.url,
      headers: forking.headers ?? (sameRemote ? (settings.fork?.headers ?? {}) : {}),
      offline: sameRemote ? (settings.fork?.offline ?? true) : false,
      // A URL without a block forks the remote's head (anvil and Hardhat do); neither: the fork block again.
      blockNumber: forking.blockNumber ?? (forking.url === undefined ? current?.info.number : undefined),
      remoteChainId: sameRemote ? (current?.info.remoteChainId ?? settings.fork?.remoteChainId) : undefined,
    };
    // The same remote at the same block: its fork block is in the fork's cache, nothing need be asked.
    const known = sameRemote && current !== undefined && fork.blockNumber === current.info.number ? { chainId: current.info.remoteChainId, number: current.info.number, hash: bytesToHex(current.info.hash) } : undefined;
    const next = { ...settings, fork };
    await this.replace(next, async (old, kept) => openFork(db, fork, undefined, next, log, { replace: await old.chain.blocks.clearOps([db.pool, db.filters]), known }, kept));
    this.devChain = true;
    log.info(`chain reset to a fork of ${fork.url === undefined ? 'the cache' : publicUrl(fork.url)} at block ${this.services.chain.genesis.header.number}`);
  }
}
