// The contract diff as text for a terminal, Markdown for a pull-request comment, or JSON for tools.

import { formatVersion, parseVersion, bumpVersion } from '../semver.js';
import { SEVERITIES, countBySeverity, requiredBump, type Bump, type Change, type Severity } from './change.js';

export type DiffFormat = 'text' | 'markdown' | 'json';
export const DIFF_FORMATS: readonly DiffFormat[] = ['text', 'markdown', 'json'];

/** One side of the diff: where the document came from and its info.version. */
export interface DiffSide {
  source: string;
  version: string;
}

export interface DiffReport {
  base: DiffSide;
  head: DiffSide;
  changes: Change[];
}

const TITLES: Record<Severity, string> = { breaking: 'Breaking', 'non-breaking': 'Non-breaking', informational: 'Informational' };

/** "a major version bump (0.1.0 → 1.0.0)", or what no change needs. */
export function describeBump(bump: Bump, baseVersion: string): string {
  if (bump === 'none') return 'no change';
  const v = parseVersion(baseVersion);
  const next = v === undefined ? '' : ` (${baseVersion} → ${formatVersion(bumpVersion(v, bump))})`;
  return `a ${bump} version bump${next}`;
}

function summary(report: DiffReport): string {
  const counts = countBySeverity(report.changes);
  const parts = SEVERITIES.map((s) => `${counts[s]} ${s}`).join(', ');
  return `${parts}: ${describeBump(requiredBump(report.changes), report.base.version)}`;
}

/**
 * Changes alike but for their method (one rule, path and message: an error code added to 40 methods, one
 * pattern changed under every method that takes a transaction) as one entry naming them all, in first-seen order.
 */
export interface FoldedChange {
  change: Change;
  methods: string[];
}

export function foldChanges(changes: readonly Change[]): FoldedChange[] {
  const folded = new Map<string, FoldedChange>();
  const out: FoldedChange[] = [];
  for (const change of changes) {
    if (change.method === undefined) {
      out.push({ change, methods: [] });
      continue;
    }
    const key = JSON.stringify([change.severity, change.rule, change.path, change.message]);
    const seen = folded.get(key);
    if (seen !== undefined) {
      seen.methods.push(change.method);
      continue;
    }
    const entry = { change, methods: [change.method] };
    folded.set(key, entry);
    out.push(entry);
  }
  return out;
}

/** Where a folded change is: "eth_call params.block", or "params.block in 3 methods: eth_call, eth_estimateGas, debug_traceCall". */
function where({ change, methods }: FoldedChange): string {
  if (methods.length === 0) return change.path;
  if (methods.length === 1) return `${methods[0]} ${change.path}`;
  return `${change.path} in ${methods.length} methods: ${methods.join(', ')}`;
}

export function formatText(report: DiffReport): string {
  const out = [`contract diff: ${report.base.source} (${report.base.version}) → ${report.head.source} (${report.head.version})`, summary(report)];
  for (const severity of SEVERITIES) {
    const changes = report.changes.filter((c) => c.severity === severity);
    if (changes.length === 0) continue;
    out.push('', `${TITLES[severity]} (${changes.length})`);
    for (const f of foldChanges(changes)) out.push(`  ${where(f)}`, `    ${f.change.message}`);
  }
  return out.join('\n') + '\n';
}

const cell = (text: string): string => text.replace(/\r?\n+/g, ' ').replace(/\|/g, '\\|');
const code = (text: string): string => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);

export function formatMarkdown(report: DiffReport): string {
  const out = [
    `### API contract diff: ${code(report.base.source)} (${report.base.version}) → ${code(report.head.source)} (${report.head.version})`,
    '',
    `**${summary(report)}**`,
  ];
  for (const severity of SEVERITIES) {
    const changes = report.changes.filter((c) => c.severity === severity);
    if (changes.length === 0) continue;
    const methods = (f: FoldedChange) => (f.methods.length > 1 ? `${f.methods.length} methods: ` : '') + f.methods.map(code).join(', ');
    const table = ['| Method | Path | Change |', '|---|---|---|', ...foldChanges(changes).map((f) => `| ${methods(f)} | ${code(f.change.path)} | ${cell(f.change.message)} |`)];
    if (severity === 'informational') {
      out.push('', `<details><summary>${TITLES[severity]} (${changes.length})</summary>`, '', ...table, '', '</details>');
    } else {
      out.push('', `#### ${TITLES[severity]} (${changes.length})`, '', ...table);
    }
  }
  return out.join('\n') + '\n';
}

export function formatJson(report: DiffReport): string {
  const bump = requiredBump(report.changes);
  const v = parseVersion(report.base.version);
  const json = {
    base: report.base,
    head: report.head,
    bump,
    expectedVersion: v === undefined ? null : formatVersion(bumpVersion(v, bump)),
    counts: countBySeverity(report.changes),
    changes: report.changes,
  };
  return JSON.stringify(json, null, 2) + '\n';
}

export function formatDiff(report: DiffReport, format: DiffFormat): string {
  return format === 'markdown' ? formatMarkdown(report) : format === 'json' ? formatJson(report) : formatText(report);
}
