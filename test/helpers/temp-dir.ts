// Temp dirs that outlive the spec making them (a file a node started by a later `it` reads) and are
// removed when the test process exits, so `npm test` leaves nothing in the temp dir.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A new dir under the temp dir named `prefix…`, removed at exit. */
export function tempDirRemovedAtExit(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
