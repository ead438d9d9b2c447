// What the contract diff reports: one entry per change between two OpenRPC documents, classified from the client's
// side (a client written against the base document, talking to a node that serves the head document).

/** `breaking`: some client of the base document fails; `non-breaking`: additions and relaxations; else documentation. */
export type Severity = 'breaking' | 'non-breaking' | 'informational';

export const SEVERITIES: readonly Severity[] = ['breaking', 'non-breaking', 'informational'];

export interface Change {
  severity: Severity;
  /** The rule that found it, e.g. `param-narrowed`, `method-removed` (stable, for tools). */
  rule: string;
  /** The method it concerns; absent for document-level changes (components, info). */
  method?: string;
  /** Where, as a JSON path: into the method (`params.block`, `result.transactions[*].gas`, `errors[-32000]`) or the document (`components.schemas.Block`). */
  path: string;
  message: string;
}

/** The semver part a set of changes requires: breaking → major, non-breaking → minor, informational → patch. */
export type Bump = 'major' | 'minor' | 'patch' | 'none';

export function requiredBump(changes: readonly Change[]): Bump {
  if (changes.some((c) => c.severity === 'breaking')) return 'major';
  if (changes.some((c) => c.severity === 'non-breaking')) return 'minor';
  return changes.length > 0 ? 'patch' : 'none';
}

export function countBySeverity(changes: readonly Change[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { breaking: 0, 'non-breaking': 0, informational: 0 };
  for (const c of changes) counts[c.severity]++;
  return counts;
}
