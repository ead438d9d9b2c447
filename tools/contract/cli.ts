// `evm-node contract diff|lint|release`: the contract tools on the command line (src/cli.ts hands `contract …` here).

import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeChangelog } from './changelog.js';
import { requiredBump } from './diff/change.js';
import { diffContracts } from './diff/diff.js';
import { DIFF_FORMATS, formatDiff, type DiffFormat } from './diff/format.js';
import { DocumentError, readDocument } from '../../shared/contract/document.js';
import { isObject } from '../../shared/contract/json.js';
import { checkVersion, contractVersion } from './gate.js';
import { lintContract, type LintProblem } from './lint.js';
import { RefError } from '../../shared/contract/refs.js';
import { readReleases, releaseFile, writeRelease } from './released.js';
import { projectRoot } from '../../shared/contract/root.js';
import { readContractSource, type ContractSource } from './source.js';

export const CONTRACT_HELP = `Usage: evm-node contract diff [BASE [HEAD]] [--base REV|FILE] [--head REV|FILE]
                            [--format text|markdown|json] [--fail-on breaking|any]
       evm-node contract lint [FILE]
       evm-node contract release

diff     every change from BASE to HEAD, classified for clients of BASE (breaking, non-breaking,
         informational), with the method and JSON path. BASE and HEAD are files or git revisions
         of openrpc.json (main, HEAD~1, v0.1.0, REV:path). BASE defaults to the last released
         contract (contract/released/), HEAD to the project's openrpc.json. --fail-on exits 1
         when a breaking change (or any change) is found.
lint     what every method must have (summary, description, valid examples, declared errors,
         consistent names, x-since), nothing the reference OpenRPC tools cannot load ($ref
         cycles, refs they cannot resolve, arrays without items, titles their generator would
         declare twice), and whether info.version moved as the diff since the last release
         requires. Exits 1 on a problem.
release  records openrpc.json as the release of its info.version (contract/released/) once lint
         passes, and regenerates docs/api-changelog.md.
`;

/** A mistake on the command line (exit status 2). */
export class ContractUsageError extends Error {}

export interface Output {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Runs `contract …` (argv without the word `contract`); answers the exit status. */
export function runContractCommand(argv: string[], out: Output): number {
  try {
    return dispatch(argv, out);
  } catch (error) {
    if (!(error instanceof DocumentError || error instanceof RefError)) throw error;
    out.stderr(`evm-node contract: ${error.message}\n`);
    return 1;
  }
}

function dispatch(argv: string[], out: Output): number {
  const [command, ...rest] = argv;
  switch (command) {
    case 'diff':
      return diff(rest, out);
    case 'lint':
      return lint(rest, out);
    case 'release':
      return release(rest, out);
    case undefined:
    case '-h':
    case '--help':
      out.stdout(CONTRACT_HELP);
      return command === undefined ? 2 : 0;
    default:
      throw new ContractUsageError(`unknown contract command ${JSON.stringify(command)}; see evm-node contract --help`);
  }
}

/** parseArgs, its complaints as usage errors. */
function usage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new ContractUsageError((error as Error).message);
  }
}

const HELP_FLAG = { help: { type: 'boolean', short: 'h' } } as const;

function diff(args: string[], out: Output): number {
  const { values, positionals } = usage(() =>
    parseArgs({
      args,
      allowPositionals: true,
      options: { ...HELP_FLAG, base: { type: 'string' }, head: { type: 'string' }, format: { type: 'string' }, 'fail-on': { type: 'string' } },
    }),
  );
  if (values.help) {
    out.stdout(CONTRACT_HELP);
    return 0;
  }
  const format = (values.format ?? 'text') as DiffFormat;
  if (!DIFF_FORMATS.includes(format)) throw new ContractUsageError(`--format must be ${DIFF_FORMATS.join(', ')}, got ${JSON.stringify(values.format)}`);
  const failOn = values['fail-on'];
  if (failOn !== undefined && failOn !== 'breaking' && failOn !== 'any') throw new ContractUsageError(`--fail-on must be breaking or any, got ${JSON.stringify(failOn)}`);
  if (positionals.length > 2) throw new ContractUsageError('contract diff takes at most BASE and HEAD');
  const baseSpec = values.base ?? positionals[0];
  const headSpec = values.head ?? positionals[1];
  const root = projectRoot();
  const base = openRpc(baseSpec === undefined ? lastRelease(root) : readContractSource(baseSpec, root));
  const head = openRpc(headSpec === undefined ? { label: 'openrpc.json', doc: readDocument(join(root, 'openrpc.json')) } : readContractSource(headSpec, root));
  const changes = diffContracts(base.doc, head.doc);
  const side = (s: ContractSource) => ({ source: s.label, version: contractVersion(s.doc) });
  out.stdout(formatDiff({ base: side(base), head: side(head), changes }, format));
  if (failOn === 'any' && changes.length > 0) return 1;
  if (failOn === 'breaking' && requiredBump(changes) === 'major') return 1;
  return 0;
}

/**
 * `source`, refused as a usage error unless it is an OpenRPC document: any JSON object would otherwise diff as a
 * contract that lost every method.
 */
function openRpc(source: ContractSource): ContractSource {
  const { doc } = source;
  const missing = [
    typeof doc.openrpc === 'string' ? undefined : '"openrpc" version',
    isObject(doc.info) ? undefined : '"info" object',
    Array.isArray(doc.methods) ? undefined : '"methods" list',
  ].filter((m) => m !== undefined);
  if (missing.length > 0) throw new ContractUsageError(`${source.label} is not an OpenRPC document: it has no ${missing.join(', no ')}`);
  return source;
}

function lastRelease(root: string): ContractSource {
  const last = readReleases(root).at(-1);
  if (last === undefined) throw new ContractUsageError('no released contract in contract/released/; name a BASE');
  return { label: last.file, doc: last.doc };
}

/** The positionals of a command that takes no flags but --help; undefined once the help is printed. */
function positionalsOf(args: string[], out: Output): string[] | undefined {
  const { values, positionals } = usage(() => parseArgs({ args, allowPositionals: true, options: HELP_FLAG }));
  if (!values.help) return positionals;
  out.stdout(CONTRACT_HELP);
  return undefined;
}

const problemLine = (file: string, p: LintProblem): string => `${file}: ${p.method === undefined ? '' : `${p.method} `}${p.path}: ${p.message} [${p.rule}]\n`;

function lint(args: string[], out: Output): number {
  const positionals = positionalsOf(args, out);
  if (positionals === undefined) return 0;
  if (positionals.length > 1) throw new ContractUsageError('contract lint takes at most one FILE');
  const root = projectRoot();
  const file = positionals[0] ?? join(root, 'openrpc.json');
  const { doc } = openRpc({ label: file, doc: readDocument(file) });
  const releases = readReleases(root);
  const problems = lintContract(doc, releases);
  for (const p of problems) out.stdout(problemLine(file, p));
  const gate = checkVersion(doc, releases);
  out.stdout(`${file}: ${gate.ok ? '' : 'info.version: '}${gate.message}${gate.ok ? '' : ' [version]'}\n`);
  const failed = problems.length + (gate.ok ? 0 : 1);
  out.stdout(failed === 0 ? `${file}: lint passed\n` : `${file}: ${failed} problem${failed === 1 ? '' : 's'}\n`);
  return failed === 0 ? 0 : 1;
}

function release(args: string[], out: Output): number {
  const positionals = positionalsOf(args, out);
  if (positionals === undefined) return 0;
  if (positionals.length > 0) throw new ContractUsageError('contract release takes no arguments: it releases openrpc.json at its info.version');
  const root = projectRoot();
  const doc = readDocument(join(root, 'openrpc.json'));
  const version = contractVersion(doc);
  const releases = readReleases(root);
  if (releases.some((r) => r.version === version)) {
    out.stderr(`${releaseFile(version)} exists: ${version} is already released; bump info.version as \`evm-node contract lint\` says first\n`);
    return 1;
  }
  const problems = lintContract(doc, releases);
  const gate = checkVersion(doc, releases);
  if (problems.length > 0 || !gate.ok) {
    for (const p of problems) out.stderr(problemLine('openrpc.json', p));
    if (!gate.ok) out.stderr(`openrpc.json: ${gate.message}\n`);
    out.stderr('not released: fix the problems above first\n');
    return 1;
  }
  const file = writeRelease(root, version);
  writeChangelog(root);
  out.stdout(`released ${version}: ${file}; docs/api-changelog.md updated. Commit both (and tag the commit contract-v${version}).\n`);
  return 0;
}
