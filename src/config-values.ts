// The values flags take, each parsed or refused with a message naming the flag (config.ts reads the flags).
import { didYouMean } from './suggest.js';

export class ConfigError extends Error {}

export const list = (value: string) => value.split(',').map((item) => item.trim()).filter((item) => item.length > 0);

export function integer(name: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw new ConfigError(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  return n;
}

export function bigint(name: string, value: string): bigint {
  if (!/^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) throw new ConfigError(`--${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return BigInt(value);
}

/** A decimal number of seconds (`2`, `0.5`), as milliseconds; at least 1 ms unless 0. */
export function seconds(name: string, value: string): number {
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value)) throw new ConfigError(`--${name} must be a number of seconds (2, 0.5), got ${JSON.stringify(value)}`);
  const ms = Math.round(Number(value) * 1000);
  if (ms === 0 && Number(value) > 0) throw new ConfigError(`--${name} must be at least 0.001 seconds, got ${JSON.stringify(value)}`);
  return ms;
}

const WEI_PER_ETHER = 10n ** 18n;

/** Ether as a decimal (`10000`, `0.5`, up to 18 decimals) or a hex integer, as wei. */
export function ether(name: string, value: string): bigint {
  if (/^0x[0-9a-fA-F]+$/.test(value)) return BigInt(value) * WEI_PER_ETHER;
  const match = /^([0-9]+)(?:\.([0-9]{1,18}))?$/.exec(value);
  if (match === null) throw new ConfigError(`--${name} must be an amount of ether with at most 18 decimals (10000, 0.5), got ${JSON.stringify(value)}`);
  return BigInt(match[1]!) * WEI_PER_ETHER + BigInt((match[2] ?? '').padEnd(18, '0'));
}

/** `value` spelled as one of `choices` (in any case), or a ConfigError naming them and the nearest. */
export function choice<T extends string>(name: string, value: string, choices: readonly T[]): T {
  const match = choices.find((c) => c.toLowerCase() === value.toLowerCase());
  if (match !== undefined) return match;
  throw new ConfigError(`--${name} must be one of ${choices.join(', ')}, got ${JSON.stringify(value)}${didYouMean(value, choices)}`);
}
