// Where a new data dir is to be made: created before LevelDB opens it, so that a path it cannot be
// made at is refused in one line naming why (a file in the way, a read-only file system, no
// permission) instead of the raw error of some fs call deep inside (ENOENT … mkdir, ENOTDIR … lstat).
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DataDirRefused } from './storage-fault.js';

/** `path`'s kind, or undefined when nothing is there (or a file stands where one of its parents should). */
function kindOf(path: string): { isDirectory: boolean } | undefined {
  try {
    const found = statSync(path, { throwIfNoEntry: false });
    return found === undefined ? undefined : { isDirectory: found.isDirectory() };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** The nearest of `dir` and its parents that exists. */
function nearestExisting(dir: string): { path: string; isDirectory: boolean } {
  for (let path = resolve(dir); ; path = dirname(path)) {
    const found = kindOf(path);
    if (found !== undefined) return { path, ...found };
    if (dirname(path) === path) return { path, isDirectory: true };
  }
}

/** Why a data dir cannot be made (or reached) at `dir`, in words; `error` is what the file system said. */
function whyNot(dir: string, error: NodeJS.ErrnoException): string {
  const ancestor = nearestExisting(dir);
  if (!ancestor.isDirectory) return `${ancestor.path} is a file, not a directory`;
  try {
    accessSync(ancestor.path, constants.W_OK);
  } catch (access) {
    const code = (access as NodeJS.ErrnoException).code;
    if (code === 'EROFS') return `${ancestor.path} is on a read-only file system`;
    if (code === 'EACCES' || code === 'EPERM') return `no permission to create it in ${ancestor.path}`;
  }
  return `${error.code ?? 'error'}: ${error.message}`;
}

/** The refusal of a data dir path that cannot be made or reached, for the error `error` the file system gave. */
export function unreachableDataDir(dir: string, error: NodeJS.ErrnoException): DataDirRefused {
  return new DataDirRefused(`cannot create the data dir ${dir}: ${whyNot(dir, error)}; choose another --data-dir`);
}

/** Creates a new data dir at `dir`, with any parents it lacks; refused in one line when it cannot be. */
export function createDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw unreachableDataDir(dir, error as NodeJS.ErrnoException);
  }
}

/** Whether every missing part of `dir` could be created: the nearest existing one is a directory. */
export const creatableBelow = (dir: string): boolean => nearestExisting(dir).isDirectory;
