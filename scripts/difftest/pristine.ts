// The unedited engine: the @ethereumjs packages of the versions we pin, installed beside the edited ones under
// the name @ethereumjs-pristine/* (npm aliases in package.json), bundled by esbuild into dist/pristine/engine.js
// with every @ethereumjs import pointed at its pristine copy: imported as they are, the pristine packages would
// load the edited copies of each other (npm installs their dependencies under the real names).
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PACKAGES = ['binarytree', 'block', 'common', 'evm', 'mpt', 'rlp', 'statemanager', 'tx', 'util', 'vm'] as const;

export interface PristineEngine {
  util: typeof import('@ethereumjs-pristine/util');
  rlp: typeof import('@ethereumjs-pristine/rlp');
  common: typeof import('@ethereumjs-pristine/common');
  mpt: typeof import('@ethereumjs-pristine/mpt');
  statemanager: typeof import('@ethereumjs-pristine/statemanager');
  tx: typeof import('@ethereumjs-pristine/tx');
  block: typeof import('@ethereumjs-pristine/block');
  evm: typeof import('@ethereumjs-pristine/evm');
  vm: typeof import('@ethereumjs-pristine/vm');
}

const ENTRY = PACKAGES.filter((name) => name !== 'binarytree')
  .map((name) => `export * as ${name} from '@ethereumjs/${name}';`)
  .join('\n');

let loading: Promise<PristineEngine> | undefined;

/** The pristine packages, bundled afresh once per process (~1 s). */
export function pristineEngine(): Promise<PristineEngine> {
  loading ??= (async () => {
    const outfile = join(root, 'dist', 'pristine', 'engine.js');
    await build({
      absWorkingDir: root,
      stdin: { contents: ENTRY, resolveDir: root, loader: 'js' },
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      alias: Object.fromEntries(PACKAGES.map((name) => [`@ethereumjs/${name}`, `@ethereumjs-pristine/${name}`])),
      banner: { js: "import { createRequire as pristineRequire } from 'node:module'; const require = pristineRequire(import.meta.url);" },
      logLevel: 'warning',
    });
    return (await import(pathToFileURL(outfile).href)) as PristineEngine;
  })();
  return loading;
}
