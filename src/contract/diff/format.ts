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

function where(c: Change): string {
  return c.method === undefined ? c.path : `${c.method} ${c.path}`;
}

export function formatText(report: DiffReport): string {
  const out = [`contract diff: ${report.base.source} (${report.base.version}) → ${report.head.source} (${report.head.version})`, summary(report)];
  for (const severity of SEVERITIES) {
    const changes = report.changes.filter((c) => c.severity === severity);
    if (changes.length === 0) continue;
    out.push('', `${TITLES[severity]} (${changes.length})`);
    for (const c of changes) out.push(`  ${where(c)}`, `    ${c.message}`);
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
    const table = ['| Method | Path | Change |', '|---|---|---|', ...changes.map((c) => `| ${c.method === undefined ? '' : code(c.method)} | ${code(c.path)} | ${cell(c.message)} |`)];
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
