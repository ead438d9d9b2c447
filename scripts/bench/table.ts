// The benchmark's output: a Markdown table on stdout.

export const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '—');

/** Prints `rows` under `header`; columns listed in `numeric` are right-aligned. */
export function printTable(header: string[], rows: string[][], numeric: ReadonlySet<number>): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (numeric.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;
  process.stdout.write(`${line(header)}\n|${widths.map((w, i) => (numeric.has(i) ? `${'-'.repeat(w + 1)}:` : `${'-'.repeat(w + 2)}`)).join('|')}|\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
}
