// The semver gate: openrpc.json's info.version must be the last released version moved as far as the contract diff
// since that release says — major for a breaking change, minor for additions (and deprecations), patch for the rest.

import { countBySeverity, requiredBump, type Bump, type Change } from './diff/change.js';
import { diffContracts } from './diff/diff.js';
import { isObject, type JsonObject } from './json.js';
import type { Release } from './released.js';
import { bumpVersion, formatVersion, parseVersion } from './semver.js';

export interface GateVerdict {
  ok: boolean;
  /** What the version must be; undefined when the current version cannot be judged. */
  expected?: string;
  bump: Bump;
  changes: Change[];
  message: string;
}

export function contractVersion(doc: JsonObject): string {
  return isObject(doc.info) && typeof doc.info.version === 'string' ? doc.info.version : '';
}

/** Judges `current`'s info.version against the newest of `releases` (oldest first). */
export function checkVersion(current: JsonObject, releases: readonly Release[]): GateVerdict {
  const version = contractVersion(current);
  const last = releases.at(-1);
  if (parseVersion(version) === undefined) {
    return { ok: false, bump: 'none', changes: [], message: `info.version ${JSON.stringify(version)} is not MAJOR.MINOR.PATCH` };
  }
  if (last === undefined) return { ok: true, expected: version, bump: 'none', changes: [], message: `no released contract yet; ${version} will be the first` };
  const changes = diffContracts(last.doc, current);
  const bump = requiredBump(changes);
  const expected = formatVersion(bumpVersion(parseVersion(last.version)!, bump));
  if (version === expected) {
    return { ok: true, expected, bump, changes, message: `info.version ${version} matches the changes since ${last.version} (${bump === 'none' ? 'none' : `a ${bump} bump`})` };
  }
  const counts = countBySeverity(changes);
  const why =
    bump === 'none'
      ? `the contract is unchanged since the released ${last.version}`
      : `the changes since the released ${last.version} (${counts.breaking} breaking, ${counts['non-breaking']} non-breaking, ${counts.informational} informational) call for a ${bump} bump`;
  const since = changes.some((c) => c.rule === 'method-added') ? ` and "x-since": "${expected}" on the methods added since` : '';
  return {
    ok: false,
    expected,
    bump,
    changes,
    message: `openrpc.json's info.version is ${version}, but ${why}: set info.version to ${expected}${since}, then \`npm run generate\`. \`npm run contract:diff\` lists the changes.`,
  };
}
