// The released contracts: a copy of openrpc.json for every version cut (contract/released/openrpc-<version>.json).
// The version gate, the x-since lint and the API changelog read these, never git history, so a shallow clone works.

import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDocument } from '../../shared/contract/document.js';
import type { JsonObject } from '../../shared/contract/json.js';
import { compareVersions, parseVersion, type Version } from './semver.js';

export const RELEASED_DIR = 'contract/released';

export interface Release {
  version: string;
  /** Path relative to the project root. */
  file: string;
  doc: JsonObject;
}

const FILE = /^openrpc-(\d+\.\d+\.\d+)\.json$/;

export function releaseFile(version: string): string {
  return `${RELEASED_DIR}/openrpc-${version}.json`;
}

/** Every released contract under `root`, oldest first. */
export function readReleases(root: string): Release[] {
  const dir = join(root, RELEASED_DIR);
  if (!existsSync(dir)) return [];
  const found: { version: string; parsed: Version }[] = [];
  for (const name of readdirSync(dir)) {
    const version = FILE.exec(name)?.[1];
    const parsed = version === undefined ? undefined : parseVersion(version);
    if (version !== undefined && parsed !== undefined) found.push({ version, parsed });
  }
  found.sort((a, b) => compareVersions(a.parsed, b.parsed));
  return found.map(({ version }) => ({ version, file: releaseFile(version), doc: readDocument(join(root, releaseFile(version))) }));
}

/** Copies `openrpc.json` byte for byte as the release of `version`; returns the new file's relative path. */
export function writeRelease(root: string, version: string): string {
  const file = releaseFile(version);
  mkdirSync(join(root, RELEASED_DIR), { recursive: true });
  if (existsSync(join(root, file))) throw new Error(`${file} exists: ${version} is already released`);
  copyFileSync(join(root, 'openrpc.json'), join(root, file));
  return file;
}

