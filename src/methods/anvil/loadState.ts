import { hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import { LoadError } from '../../dump/load.js';
import { invalidParams } from '../../rpc/errors.js';
import type { Handlers, MethodServices } from '../services.js';

/** Pieces a loaded blob is read in, as a file would be. */
const PIECE = 64 * 1024;

export function anvil_loadState({ stateDumps }: Pick<MethodServices, 'stateDumps'>): Handlers['anvil_loadState'] {
  return async ([blob]) => {
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
}
