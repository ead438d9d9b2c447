// The README is a guide, not a lab notebook: short, a map of the code near the top, a tour in the
// order a newcomer meets the node, the current performance table last; the details live in docs/,
// and every link between them leads somewhere.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const sections = [...README.matchAll(/^## (.*)$/gm)].map(([, title]) => title!);

/** GitHub's anchor for a heading. */
const anchorOf = (heading: string) => heading.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');

describe('the README', () => {
  it('stays under 500 lines', () => {
    expect(README.split('\n').length).to.be.below(500);
  });

  it('opens with the two commands, then the map of the code', () => {
    const beforeSections = README.slice(0, README.indexOf('\n## '));
    expect(beforeSections).to.contain('npm ci && npm start').and.to.contain('npm test');
    expect(sections[0]).to.equal('Map of the code');
  });

  it('tours the node in the order a newcomer meets it, and ends with the current performance', () => {
    const tour = ['Where the chain lives', 'What it prints', 'Flags', 'Test methods', 'Forking', 'The contract', 'Client SDKs', 'Playground'];
    const at = tour.map((title) => sections.findIndex((section) => section.startsWith(title)));
    expect(at, `sections: ${sections.join(' | ')}`).to.not.include(-1);
    expect([...at].sort((a, b) => a - b)).to.deep.equal(at);
    expect(sections.at(-1)).to.equal('Performance');
  });

  it('links only to files and headings that exist', () => {
    const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join(ROOT, 'docs', name));
    const broken: string[] = [];
    for (const file of [join(ROOT, 'README.md'), ...docs]) {
      const text = readFileSync(file, 'utf8');
      for (const [, target] of text.matchAll(/\]\(((?!https?:)[^)\s]+)\)/g)) {
        const [path, anchor] = target!.split('#');
        const linked = path === '' ? file : join(dirname(file), path!);
        if (!existsSync(linked)) broken.push(`${file}: ${target}`);
        else if (anchor !== undefined && linked.endsWith('.md')) {
          const headings = [...readFileSync(linked, 'utf8').matchAll(/^#+ (.*)$/gm)].map(([, heading]) => anchorOf(heading!));
          if (!headings.includes(anchor)) broken.push(`${file}: ${target}`);
        }
      }
    }
    expect(broken).to.deep.equal([]);
  });
});
