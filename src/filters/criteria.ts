// Log criteria: which logs a filter, a subscription or eth_getLogs wants, and the cheap
// logs-bloom test that lets a scan skip a block without reading its receipts.
import { bytesToHex, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { FilterOptions } from '../../generated/types.js';
import { bloomBits, type BloomBits } from '../chain/bloom.js';
import type { RawLog } from '../chain/receipts.js';
import { invalidCriteria } from './errors.js';

export const MAX_TOPICS = 4;

export interface LogCriteria {
  /** lowercase hex addresses; null matches any emitter */
  readonly addresses: ReadonlySet<string> | null;
  /** per position: the lowercase hex topics accepted there, or null for any (the log still needs a topic there) */
  readonly topics: ReadonlyArray<ReadonlySet<string> | null>;
  /** bloom bits of each address, and of each topic per position (null where anything goes) */
  readonly addressBits: BloomBits[] | null;
  readonly topicBits: ReadonlyArray<BloomBits[] | null>;
}

const inBloom = (bloom: Uint8Array, bits: BloomBits) => bits.every(([index, mask]) => (bloom[index] & mask) !== 0);

/** A set of accepted values, or null when the list accepts anything (absent, null, or empty). */
function valueSet(values: readonly string[] | null): Set<string> | null {
  return values === null || values.length === 0 ? null : new Set(values.map((v) => v.toLowerCase()));
}

const bitsOf = (set: ReadonlySet<string> | null): BloomBits[] | null =>
  set === null ? null : [...set].map((hex) => bloomBits(hexToBytes(hex as PrefixedHexString)));

/**
 * Criteria from a filter object: `address` one or a list, `topics` positional with `null`
 * wildcards and OR-lists. More than four positions can never match and is refused, as geth does.
 */
export function parseCriteria(options: Pick<FilterOptions, 'address' | 'topics'> | undefined): LogCriteria {
  const address = options?.address ?? null;
  const addresses = valueSet(address === null ? null : Array.isArray(address) ? address : [address]);
  const positions = options?.topics ?? [];
  if (positions.length > MAX_TOPICS) throw invalidCriteria('exceed max topics');
  const topics = positions.map((topic) => valueSet(topic === null ? null : Array.isArray(topic) ? topic : [topic]));
  return { addresses, topics, addressBits: bitsOf(addresses), topicBits: topics.map(bitsOf) };
}

/** As geth matches: a log needs at least as many topics as the filter has positions, wildcards included. */
export function matchesLog(criteria: LogCriteria, [address, topics]: RawLog): boolean {
  if (criteria.addresses !== null && !criteria.addresses.has(bytesToHex(address))) return false;
  if (criteria.topics.length > topics.length) return false;
  return criteria.topics.every((accepted, i) => accepted === null || accepted.has(bytesToHex(topics[i])));
}

const EMPTY = (bloom: Uint8Array) => bloom.every((byte) => byte === 0);

/**
 * False when a block with this logs bloom certainly holds no matching log; true when it may.
 * An all-zero bloom means no logs at all, whatever the criteria.
 */
export function bloomMayMatch(criteria: LogCriteria, bloom: Uint8Array): boolean {
  if (EMPTY(bloom)) return false;
  if (criteria.addressBits !== null && !criteria.addressBits.some((bits) => inBloom(bloom, bits))) return false;
  return criteria.topicBits.every((alternatives) => alternatives === null || alternatives.some((bits) => inBloom(bloom, bits)));
}
