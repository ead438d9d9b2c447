import type { SyncStatus as RpcSyncStatus } from '../../generated/types.js';

/** Progress of a chain import, as eth_syncing reports it; `false` when nothing is being imported. */
export class SyncStatus {
  private progress?: { startingBlock: bigint; currentBlock: bigint; highestBlock: bigint };

  begin(startingBlock: bigint, highestBlock: bigint): void {
    this.progress = { startingBlock, currentBlock: startingBlock, highestBlock };
  }

  advance(currentBlock: bigint): void {
    if (this.progress !== undefined) this.progress.currentBlock = currentBlock;
  }

  end(): void {
    this.progress = undefined;
  }

  status(): RpcSyncStatus {
    if (this.progress === undefined) return false;
    const { startingBlock, currentBlock, highestBlock } = this.progress;
    // docs/SPEC.md §2.12: decimal strings, not hex quantities.
    return { startingBlock: startingBlock.toString(10), currentBlock: currentBlock.toString(10), highestBlock: highestBlock.toString(10) };
  }
}
