// `evm-node --help` and the documentation must tell the same story: the full flags table in docs/operations.md
// has the same flags as --help, in the same order, with the same value names, defaults and accepted values; the
// README's table of the flags met first holds only flags of --help, each as --help gives it.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { DEV_HARDFORKS } from '../../src/chain/dev-genesis.js';
import { HELP } from '../../src/flags.js';
import { LOG_LEVELS } from '../../src/log.js';
import { projectRoot } from '../../shared/contract/root.js';

interface FlagDoc {
  name: string;
  value?: string;
  default?: string;
  text: string;
}

/** The flags --help lists: `  --name VALUE   text (default X)`, continued on lines indented past the name. */
function helpFlags(help: string): FlagDoc[] {
  const section = help.slice(help.indexOf('\nFlags:\n') + 8, help.indexOf('\n\n', help.indexOf('\nFlags:\n')));
  const flags: FlagDoc[] = [];
  for (const line of section.split('\n')) {
    const entry = /^ {2}(?:-\w, )?--([\w-]+)(?: (\S+))?(?: {2,}(.*))?$/.exec(line);
    if (entry !== null) flags.push({ name: entry[1]!, value: entry[2], text: entry[3] ?? '' });
    else flags.at(-1)!.text += ` ${line.trim()}`;
  }
  for (const flag of flags) {
    flag.text = flag.text.trim();
    flag.default = /\(default (.+)\)$/.exec(flag.text)?.[1];
  }
  return flags;
}

/** The flags table of a document's "## Flags" section: `| \`--name VALUE\` | default | meaning |`, `—` for no default. */
function tableFlags(document: string): FlagDoc[] {
  const section = document.slice(document.indexOf('## Flags'), document.indexOf('\n## ', document.indexOf('## Flags') + 1));
  return section
    .split('\n')
    .map((line) => /^\| `(?:-\w, )?--([\w-]+)(?: ([^`]+))?` \| (.+?) \| (.+) \|$/.exec(line))
    .filter((row) => row !== null)
    .map((row) => ({ name: row[1]!, value: row[2], default: row[3] === '—' ? undefined : row[3]!.replaceAll('`', ''), text: row[4]! }));
}

const backticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

/** Every flag's value and default in `documented` are --help's (a default as the documentation words it includes --help's). */
function expectSameValuesAndDefaults(help: FlagDoc[], documented: FlagDoc[]): void {
  for (const doc of documented) {
    const flag = help.find((f) => f.name === doc.name)!;
    expect(doc.value, `--${doc.name}`).to.equal(flag.value);
    if (flag.default === undefined) expect(doc.default, `--${doc.name} has no default in --help`).to.equal(undefined);
    else expect(doc.default, `--${doc.name}`).to.include(flag.default);
  }
}

describe('--help and the documentation agree', () => {
  const help = helpFlags(HELP);
  const full = tableFlags(readFileSync(`${projectRoot()}/docs/operations.md`, 'utf8'));
  const readme = tableFlags(readFileSync(`${projectRoot()}/README.md`, 'utf8'));
  const inFull = (name: string) => full.find((flag) => flag.name === name)!;

  it('on the flags and their order: docs/operations.md documents every flag of --help, and no other', () => {
    expect(help.length).to.be.above(25);
    expect(full.map((flag) => flag.name)).to.deep.equal(help.map((flag) => flag.name));
  });

  it("on each flag's value and default", () => {
    expectSameValuesAndDefaults(help, full);
  });

  it('on the hardforks --hardfork takes', () => {
    const helpText = help.find((flag) => flag.name === 'hardfork')!.text;
    for (const fork of DEV_HARDFORKS) expect(helpText, fork).to.include(fork);
    expect(backticked(inFull('hardfork').text)).to.deep.equal([...DEV_HARDFORKS]);
  });

  it('on the levels --log-level takes', () => {
    const helpText = help.find((flag) => flag.name === 'log-level')!.text;
    for (const level of LOG_LEVELS) expect(helpText, level).to.include(level);
    expect(backticked(inFull('log-level').text).slice(0, LOG_LEVELS.length)).to.deep.equal([...LOG_LEVELS]);
  });

  it("in the README's table of the flags met first: each one a flag of --help, in --help's order, valued and defaulted as there", () => {
    expect(readme.length).to.be.above(5);
    const names = help.map((flag) => flag.name);
    expect(readme.map((flag) => flag.name).filter((name) => !names.includes(name))).to.deep.equal([]);
    const positions = readme.map((flag) => names.indexOf(flag.name));
    expect(positions).to.deep.equal([...positions].sort((a, b) => a - b));
    expectSameValuesAndDefaults(help, readme);
  });
});
