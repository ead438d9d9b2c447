// `evm-node --help` and the README's flags table must tell the same story: the same flags, in the
// same order, with the same value names, defaults and accepted values.
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

/** The README's flags table: `| \`--name VALUE\` | default | meaning |`, `—` for no default. */
function readmeFlags(readme: string): FlagDoc[] {
  const section = readme.slice(readme.indexOf('## Flags'), readme.indexOf('\n## ', readme.indexOf('## Flags') + 1));
  return section
    .split('\n')
    .map((line) => /^\| `(?:-\w, )?--([\w-]+)(?: ([^`]+))?` \| (.+?) \| (.+) \|$/.exec(line))
    .filter((row) => row !== null)
    .map((row) => ({ name: row[1]!, value: row[2], default: row[3] === '—' ? undefined : row[3]!.replaceAll('`', ''), text: row[4]! }));
}

const backticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

describe('--help and the README agree', () => {
  const help = helpFlags(HELP);
  const readme = readmeFlags(readFileSync(`${projectRoot()}/README.md`, 'utf8'));
  const inReadme = (name: string) => readme.find((flag) => flag.name === name)!;

  it('on the flags and their order', () => {
    expect(help.length).to.be.above(25);
    expect(readme.map((flag) => flag.name)).to.deep.equal(help.map((flag) => flag.name));
  });

  it("on each flag's value", () => {
    for (const flag of help) expect(inReadme(flag.name).value, `--${flag.name}`).to.equal(flag.value);
  });

  it("on each flag's default", () => {
    for (const flag of help) {
      const documented = inReadme(flag.name).default;
      if (flag.default === undefined) expect(documented, `--${flag.name} has no default in --help`).to.equal(undefined);
      else expect(documented, `--${flag.name}`).to.include(flag.default);
    }
  });

  it('on the hardforks --hardfork takes', () => {
    const helpText = help.find((flag) => flag.name === 'hardfork')!.text;
    for (const fork of DEV_HARDFORKS) expect(helpText, fork).to.include(fork);
    expect(backticked(inReadme('hardfork').text)).to.deep.equal([...DEV_HARDFORKS]);
  });

  it('on the levels --log-level takes', () => {
    const helpText = help.find((flag) => flag.name === 'log-level')!.text;
    for (const level of LOG_LEVELS) expect(helpText, level).to.include(level);
    expect(backticked(inReadme('log-level').text).slice(0, LOG_LEVELS.length)).to.deep.equal([...LOG_LEVELS]);
  });
});
