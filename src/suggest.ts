// "Did you mean …?" for a mistyped flag, command or value: the nearest known word by edit distance.

/** Edit distance counting a swap of two neighbouring letters as one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known word `typed` most likely meant: the nearest within a third of its length (at least one
 * edit), or else one that it starts with or that starts with it (`--hostname` → `--host`).
 */
export function nearest(typed: string, known: readonly string[]): string | undefined {
  const word = typed.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(word, candidate.toLowerCase());
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  if (best !== undefined && best.distance <= Math.max(1, Math.floor(word.length / 3))) return best.candidate;
  return known.find((candidate) => {
    const c = candidate.toLowerCase();
    return Math.min(c.length, word.length) >= 3 && (word.startsWith(c) || c.startsWith(word));
  });
}

/** ` (did you mean X?)`, or nothing when no known word is near. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const match = nearest(typed, known);
  return match === undefined ? '' : ` (did you mean ${match}?)`;
}
