// The semver gate: openrpc.json's info.version must be the last released version moved as far as the contract diff
// since that release says — major for a breaking change, minor for additions (and deprecations), patch for the rest.

import { countBySeverity, requiredBump, type Bump, type Change } from './diff/change.js';
import { diffContracts } from './diff/diff.js';
import { isObject, type JsonObject } from '../../shared/contract/json.js';
import { deref } from '../../shared/contract/refs.js';
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

/** Methods with an example result that quotes the document's info.version (rpc.discover's), which a bump must follow. */
function methodsQuotingVersion(doc: JsonObject, version: string): string[] {
  const out: string[] = [];
  for (const raw of Array.isArray(doc.methods) ? doc.methods : []) {
    const m = deref<JsonObject>(doc, raw);
    const quotes = (Array.isArray(m.examples) ? m.examples : []).some((e) => {
      const result = deref<JsonObject>(doc, deref<JsonObject>(doc, e).result);
      const value = isObject(result) ? result.value : undefined;
      return isObject(value) && isObject(value.info) && value.info.version === version;
    });
    if (quotes) out.push(String(m.name));
  }
  return out;
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
  const quoting = methodsQuotingVersion(current, version);
  const examples = quoting.length > 0 ? ` (also in the example result of ${quoting.join(', ')}, which quotes it)` : '';
  return {
    ok: false,
    expected,
    bump,
    changes,
    message: `openrpc.json's info.version is ${version}, but ${why}: set info.version to ${expected}${examples}${since}, then \`npm run generate\`. \`npm run contract:diff\` lists the changes.`,
  };
}
