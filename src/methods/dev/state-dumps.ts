import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { DumpError } from '../../dump/dump.js';
import { LoadError } from '../../dump/load.js';
import { invalidParams, serverError } from '../../rpc/errors.js';
import type { Handlers, Services } from '../services.js';

type Deps = Pick<Services, 'stateDumps'>;

/** Pieces a loaded blob is read in, as a file would be. */
const PIECE = 64 * 1024;

/** anvil_dumpState / anvil_loadState and the hardhat_ names: the state as anvil's blob (src/dev/state-dumps.ts). */
export function stateDumpMethods({ stateDumps }: Deps): Pick<Handlers, 'anvil_dumpState' | 'hardhat_dumpState' | 'anvil_loadState' | 'hardhat_loadState'> {
  // As anvil answers: the gzipped JSON, in hex.
  const dump = async () => {
    const zipped: Buffer[] = [];
    try {
      await pipeline(stateDumps.dump(), createGzip(), async (gzipped: AsyncIterable<Buffer>) => {
        for await (const piece of gzipped) zipped.push(piece);
      });
    } catch (error) {
      if (error instanceof DumpError) throw serverError(`cannot dump the state: ${error.message}`);
      throw error;
    }
    return `0x${Buffer.concat(zipped).toString('hex')}`;
  };
  const load = async ([blob]: [string]) => {
    const bytes = hexToBytes(blob as PrefixedHexString);
    async function* pieces() {
      for (let at = 0; at < bytes.length; at += PIECE) yield bytes.subarray(at, at + PIECE);
    }
    try {
      await stateDumps.load(pieces());
    } catch (error) {
      if (error instanceof LoadError) throw invalidParams(`invalid argument 0 (state): ${error.message}; nothing was loaded`);
      throw error;
    }
    return true as const;
  };
  return { anvil_dumpState: dump, hardhat_dumpState: dump, anvil_loadState: load, hardhat_loadState: load };
}
