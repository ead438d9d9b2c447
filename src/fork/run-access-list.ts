import { bigIntToHex, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { ListedKeys, RunRequest } from '../state/run-request.js';
import type { ReadWatch } from '../state/snapshot.js';
import { unserved } from './fork-values.js';
import type { RemoteBlock } from './proof-records.js';
import type { RemoteRpc } from './remote.js';

/**
 * Reads of one run that wait for the remote before the remote is asked for the whole run's access
 * list. Three: a call that reads one or two slots (balanceOf, allowance; a token transfer's two
 * balances) never asks, and a call that reads many (a multicall, a swap's route) waits three round
 * trips, then one for the list and one for all it names, where it waited one per read.
 */
const WAITS_BEFORE_ASKING = 3;

/** Counts one run's waits for the remote and, at {@link WAITS_BEFORE_ASKING}, asks once. */
class RunWatch implements ReadWatch {
  private waits = 0;

  constructor(private readonly ask: () => void) {}

  waited(): void {
    this.waits++;
    if (this.waits === WAITS_BEFORE_ASKING) this.ask();
  }
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const KEY = /^0x[0-9a-fA-F]{64}$/;

/**
 * The entries of an eth_createAccessList answer ({ accessList: [{ address, storageKeys }] }) that
 * are well formed; the rest is left out. Only a hint of what to fetch: what is fetched for it is
 * checked as any fetch is.
 */
function listedKeysOf(answer: unknown): ListedKeys[] {
  const list = (answer as { accessList?: unknown } | null)?.accessList;
  if (!Array.isArray(list)) return [];
  const out: ListedKeys[] = [];
  for (const entry of list as { address?: unknown; storageKeys?: unknown }[]) {
    if (typeof entry?.address !== 'string' || !ADDRESS.test(entry.address)) continue;
    const keys = Array.isArray(entry.storageKeys) ? entry.storageKeys.filter((key): key is string => typeof key === 'string' && KEY.test(key)) : [];
    out.push([hexToBytes(entry.address as PrefixedHexString), keys.map((key) => hexToBytes(key as PrefixedHexString))]);
  }
  return out;
}

/**
 * Runs' access lists, asked of a fork's remote ({@link watchFor}). The EVM meets a run's reads one
 * after another, so a call reading a hundred cold slots would wait a hundred round trips; once a
 * run has waited {@link WAITS_BEFORE_ASKING} times, the remote is asked for its access list
 * (eth_createAccessList of the same run at the remote block) and `fetch` fetches what that names at
 * once. The list is the remote's guess, made on its state at that block: where the node's state has
 * moved on, the run may read what it does not name (fetched as it is met) or not read all it names
 * (fetched for nothing).
 */
export class RemoteAccessLists {
  /** Set once the remote refused eth_createAccessList: runs then fetch what they read as they meet it. */
  private unserved = false;

  constructor(
    private readonly remote: RemoteRpc | undefined,
    /** fetches what a list names at `block`: slots as proofs where `proofs` (a block being built), else as a call reads them */
    private readonly fetch: (block: RemoteBlock, lists: ListedKeys[], proofs: boolean) => Promise<void>,
  ) {}

  /** What hears of one run's reads on `block`'s state (`request`: the run); undefined where no remote can be asked. */
  watchFor(block: RemoteBlock, request: RunRequest, proofs: boolean): ReadWatch | undefined {
    if (this.remote === undefined || this.unserved) return undefined;
    return new RunWatch(() => void this.fetchListOf(block, request, proofs));
  }

  /** Asks the remote for `request`'s access list at `block` and fetches what it names; nothing of it fails the run, which fetches what it meets. */
  private async fetchListOf(block: RemoteBlock, request: RunRequest, proofs: boolean): Promise<void> {
    const ask = (asked: RunRequest) => this.remote!.call<unknown>('eth_createAccessList', [asked, bigIntToHex(block.number)]);
    let answer: unknown;
    try {
      answer = await ask(request);
    } catch (error) {
      if (unserved(error)) this.unserved = true;
      // geth charges the sender fees for the run, which a dev account may not have on the remote's
      // chain: asked again from the remote's default sender (the zero address, rich on mainnet).
      if (unserved(error) || request.from === undefined) return;
      try {
        answer = await ask({ ...request, from: undefined });
      } catch {
        return;
      }
    }
    await this.fetch(block, listedKeysOf(answer), proofs).catch(() => undefined);
  }
}
