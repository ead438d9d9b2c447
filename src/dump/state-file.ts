// --dump-state, --load-state and --state: a state dump in a file, as anvil keeps one (plain JSON; a directory
// stands for the state.json inside it).
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { ConfigError } from '../config-values.js';
import type { StateDumps } from '../dev/state-dumps.js';
import type { Logger } from '../log.js';
import { LoadError } from './load.js';

/** The file a --dump-state/--state path names: the path itself, or state.json inside a directory. */
export function stateFile(path: string): string {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true ? join(path, 'state.json') : path;
}

/** Whether a state file exists to load (--state loads it only if it does). */
export const stateFileExists = (path: string): boolean => statSync(stateFile(path), { throwIfNoEntry: false })?.isFile() === true;

/** The file's bytes, in pieces. */
export function readStateFile(path: string): AsyncIterable<Uint8Array> {
  return createReadStream(stateFile(path));
}

/**
 * Writes `text` to the state file whole or not at all: into a file beside it, then renamed over it, so a
 * crash mid-write leaves the previous dump, never half of one.
 */
export async function writeStateFile(path: string, text: AsyncIterable<string>): Promise<string> {
  const file = stateFile(path);
  const partial = `${file}.${process.pid}.partial`;
  try {
    await pipeline(Readable.from(text), createWriteStream(partial, { flush: true }));
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return file;
}

/** --load-state (--state, when its file exists): the dump merged into the state before the node serves. */
export async function loadStateFlag(dumps: StateDumps, { path, ifExists }: { path: string; ifExists: boolean }): Promise<void> {
  if (!stateFileExists(path)) {
    if (ifExists) return;
    throw new ConfigError(`cannot read --load-state ${path}: no such file`);
  }
  try {
    await dumps.load(readStateFile(path));
  } catch (error) {
    if (error instanceof LoadError) throw new ConfigError(`--load-state ${path} cannot be loaded: ${error.message}`);
    throw error;
  }
}

/** --dump-state (--state): the state written as the node stops; a failure is logged, and the node stops all the same. */
export async function dumpStateFlag(dumps: StateDumps, path: string, log: Logger): Promise<void> {
  try {
    log.info(`state dumped to ${await writeStateFile(path, dumps.dump())}`);
  } catch (error) {
    log.error(`--dump-state ${path}: the state could not be written: ${(error as Error).message}`);
  }
}
