// How many more blocks the chain has room for: what anvil_mine checks a count against before it
// mines, so a count that cannot fit is refused up front, with the room there is, instead of
// growing the node until it dies (in memory) or filling the disk.
import { statfs } from 'node:fs/promises';
import { freemem } from 'node:os';
import { getHeapStatistics } from 'node:v8';

/**
 * What an empty block takes, measured over anvil_mine of 20,000 blocks: kept in memory, 6.7 KB of
 * V8's heap and 5.8 KB of buffers, the process growing by 17-29 KB; in the data dir 5.9 KB, which
 * LevelDB's compactions write again (the old tables go only once the new ones are written). With room to spare.
 */
export const BLOCK_BYTES = { heap: 8 * 1024, memory: 17 * 1024, disk: 12 * 1024 } as const;
/** The share of V8's heap kept for everything else the node does, while it mines and after. */
const HEAP_KEPT = 0.25;

export interface BlockRoom {
  /** empty blocks that fit */
  blocks: bigint;
  /** where they would go and what room there is, in words */
  where: string;
  /** what would make room for more */
  remedy: string;
}

const MIB = 1024 * 1024;
const mib = (bytes: number): string => `${Math.max(0, Math.floor(bytes / MIB)).toLocaleString('en-US')} MiB`;
const fitting = (bytes: number, each: number): bigint => BigInt(Math.max(0, Math.floor(bytes / each)));

/** The room for more blocks of a chain kept in `dataDir`, or in memory when there is none. */
export async function roomForBlocks(dataDir: string | undefined): Promise<BlockRoom> {
  if (dataDir !== undefined) {
    const { bavail, bsize } = await statfs(dataDir);
    const free = bavail * bsize;
    return { blocks: fitting(free, BLOCK_BYTES.disk), where: `the data dir's disk has ${mib(free)} free`, remedy: 'free some disk space' };
  }
  const { heap_size_limit: limit, used_heap_size: used } = getHeapStatistics();
  const heap = limit * (1 - HEAP_KEPT) - used;
  const memory = freemem();
  const blocks = [fitting(heap, BLOCK_BYTES.heap), fitting(memory, BLOCK_BYTES.memory)].reduce((a, b) => (a < b ? a : b));
  return {
    blocks,
    where: `the chain is kept in memory, with ${mib(heap)} of the node's heap to spare and ${mib(memory)} of the machine's memory available`,
    remedy: 'keep the chain on disk (--data-dir)',
  };
}
