// Files that do one job stay short enough to read in one sitting: no file of the node (src/), its scripts, the
// test helpers, the contract tools, the shared contract module or the playground passes 400 lines. A file that
// grows past it is split along a seam it already has.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FOLDERS = ['src', 'scripts', 'test/helpers', 'tools', 'shared', 'playground'];
const MAX_LINES = 400;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)]));
}

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('file length', () => {
  it(`keeps every file in ${FOLDERS.join(', ')} at ${MAX_LINES} lines or fewer`, () => {
    const checked = FOLDERS.flatMap((folder) => files(join(ROOT, folder))).map((file) => relative(ROOT, file));
    expect(checked.length).to.be.greaterThan(300);
    const long = checked
      .map((file) => ({ file, lines: lineCount(readFileSync(join(ROOT, file), 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).to.deep.equal([]);
  });
});
