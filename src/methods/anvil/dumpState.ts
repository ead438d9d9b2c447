import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { DumpError } from '../../dump/dump.js';
import { serverError } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

/** The state as anvil's blob (src/dev/state-dumps.ts), as anvil answers: the gzipped JSON, in hex. */
export function anvil_dumpState({ stateDumps }: Pick<MethodServices, 'stateDumps'>): Handlers['anvil_dumpState'] {
  return async () => {
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
}
