// What the storage layer tells the rest of the node when it cannot be trusted: a write that
// failed at run time (StorageFault), or a data dir that cannot be opened as the chain it says it
// is (DataDirRefused). rpc/ maps the first to -32000; the CLI prints the second as one line.

/**
 * The database refused a write, or refuses writes since an earlier one failed: nothing is
 * acknowledged until it is known good again. The message names the cause in words.
 */
export class StorageFault extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageFault';
  }
}

/** A data dir the node will not serve, with one line naming the file and the cause. */
export class DataDirRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirRefused';
  }
}

/** LevelDB reports errno by its strerror text: "IO error: <file>: No space left on device". */
const ERRNO: ReadonlyArray<{ text: RegExp; code: string; words: string; kind: string }> = [
  { text: /no space left on device/i, code: 'ENOSPC', words: 'no space left on device', kind: 'disk full' },
  { text: /disk quota exceeded/i, code: 'EDQUOT', words: 'disk quota exceeded', kind: 'disk full' },
  { text: /input\/output error/i, code: 'EIO', words: 'input/output error', kind: 'storage failure' },
  { text: /read-only file system/i, code: 'EROFS', words: 'read-only file system', kind: 'storage failure' },
  { text: /permission denied/i, code: 'EACCES', words: 'permission denied', kind: 'storage failure' },
];

/** The StorageFault for a write LevelDB failed, naming the file it was writing when it says which. */
export function writeFault(error: unknown, dir: string): StorageFault {
  const message = error instanceof Error ? error.message : String(error);
  const file = /^IO error: (.+): [^:]+$/.exec(message)?.[1] ?? dir;
  const known = ERRNO.find((errno) => errno.text.test(message));
  const cause = known === undefined ? `storage failure: ${message}` : `${known.kind}: ${known.words} (${known.code}) writing ${file}`;
  return new StorageFault(`${cause}; the node refuses writes until the data dir can be written again`, { cause: error });
}
