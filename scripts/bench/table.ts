// The benchmark's output: a Markdown table on stdout.

export const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '—');

/** Prints `rows` under `header`; columns listed in `numeric` are right-aligned. */
export function printTable(header: string[], rows: string[][], numeric: ReadonlySet<number>): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (numeric.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
  process.stdout.write(`${line(header)}\n|${widths.map((w, i) => (numeric.has(i) ? `${'-'.repeat(w + 1)}:` : `${'-'.repeat(w + 2)}`)).join('|')}|\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
}

/** Where the benchmark says what it is doing (stderr, so stdout holds only the table). */
export type Log = (message: string) => void;

/** One measured workload: its headline result, latency percentiles where it has them, and how it was measured. */
export interface Row {
  workload: string;
  result: string;
  p50?: number;
  p99?: number;
  note?: string;
}

export function printRows(rows: Row[]): void {
  const body = rows.map((r) => [r.workload, r.result, r.p50 === undefined ? '' : fmt(r.p50, 2), r.p99 === undefined ? '' : fmt(r.p99, 2), r.note ?? '']);
  printTable(['workload', 'result', 'p50 ms', 'p99 ms', 'note'], body, new Set([1, 2, 3]));
}

/** The node's CPU time per operation, as a note's ending; nothing when it was not measured (a node given by --url). */
export const cpuNote = (cpuUs: number | undefined) => (cpuUs === undefined ? '' : `; node CPU ${fmt(cpuUs)} µs each`);
