// anvil_loadState and --load-state: a state dump in anvil's format (gzipped, as anvil_dumpState answers, or plain
// JSON, as --dump-state writes), read as it streams in — accounts applied one by one, never the whole dump in
// memory — and refused with the reason when it is not a dump or belongs to another chain.
import { createGunzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { TokenParser, Tokenizer, type ParsedElementInfo } from '@streamparser/json';
import { Address, hexToBytes, type PrefixedHexString } from '@ethereumjs/util';
import type { DumpedAccount } from './anvil-format.js';

/** A dump that cannot be loaded: not JSON, not anvil's shape, or another chain's. Nothing of it was applied. */
export class LoadError extends Error {}

export interface LoadTarget {
  /** the chain loading it: a dump whose transactions are signed for another is refused (undefined: not checked) */
  chainId: bigint | undefined;
  /** applies one account of the dump (the target discards them all when the load fails) */
  put(address: Address, account: DumpedAccount): Promise<void>;
}

const GZIP_MAGIC = [0x1f, 0x8b];

/** `chunks` as they were written: gunzipped when they start as gzip does. */
export async function* unzipped(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done === true) return;
  const rest: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => iterator };
  if (first.value[0] !== GZIP_MAGIC[0] || first.value[1] !== GZIP_MAGIC[1]) {
    yield first.value;
    yield* rest;
    return;
  }
  const gunzip = Readable.from((async function* () {
    yield first.value;
    yield* rest;
  })()).pipe(createGunzip());
  try {
    for await (const chunk of gunzip) yield chunk as Uint8Array;
  } catch (error) {
    throw new LoadError(`the state dump is gzip but does not unzip: ${(error as Error).message}`);
  }
}

interface Parsed {
  path: 'account' | 'block' | 'top';
  key: string | number | undefined;
  value: unknown;
}

/** Reads the dump in `chunks` (JSON text, already unzipped) into `target`; answers how many accounts it applied. */
export async function loadState(chunks: AsyncIterable<Uint8Array>, target: LoadTarget): Promise<number> {
  const tokenizer = new Tokenizer();
  // One token stream, read by a parser that keeps nothing it has handed out: accounts and blocks one at a
  // time, then what is left of each top-level member (its emptied containers, the block environment).
  const parser = new TokenParser({ paths: ['$.accounts.*', '$.blocks.*', '$.transactions.*', '$.*'], keepStack: false });
  const parsed: Parsed[] = [];
  parser.onValue = ({ value, key, stack }: ParsedElementInfo) => {
    const depth = stack.length;
    const parent = depth >= 2 ? stack[1]!.key : undefined;
    if (depth === 1) parsed.push({ path: 'top', key, value });
    else if (parent === 'accounts') parsed.push({ path: 'account', key, value });
    else if (parent === 'blocks') parsed.push({ path: 'block', key, value });
  };
  tokenizer.onToken = (token) => parser.write(token);
  tokenizer.onEnd = () => {
    if (!parser.isEnded) parser.end();
  };
  const topLevel = new Set<string>();
  let accounts = 0;
  const drain = async () => {
    for (const { path, key, value } of parsed.splice(0)) {
      if (path === 'account') {
        await target.put(...account(key, value));
        accounts++;
      } else if (path === 'block') {
        if (target.chainId !== undefined) checkChain(value, target.chainId);
      } else if (typeof key === 'string') {
        if (key === 'accounts' && !isObject(value)) throw new LoadError('accounts: not an object of accounts by address');
        topLevel.add(key);
      }
    }
  };
  // The parser's complaints are the dump's fault; anything else (the database's) is not.
  const parse = (step: () => void) => {
    try {
      step();
    } catch (error) {
      throw new LoadError(`the state dump is not JSON: ${(error as Error).message}`);
    }
  };
  for await (const chunk of chunks) {
    parse(() => tokenizer.write(chunk));
    await drain();
  }
  parse(() => tokenizer.end());
  await drain();
  if (!topLevel.has('accounts')) throw new LoadError('not a state dump: anvil\'s is a JSON object with "accounts" (and "block", "blocks", …)');
  return accounts;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A dump's account entry, checked: the address and what anvil writes of the account. */
function account(key: unknown, value: unknown): [Address, DumpedAccount] {
  const where = `accounts.${String(key)}`;
  if (typeof key !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(key)) throw new LoadError(`${where}: not an address`);
  if (!isObject(value)) throw new LoadError(`${where}: not an object with nonce, balance, code and storage`);
  const storage = value.storage ?? {};
  if (!isObject(storage)) throw new LoadError(`${where}.storage: not an object of slots`);
  return [
    new Address(hexToBytes(key as PrefixedHexString)),
    {
      nonce: quantity(value.nonce, `${where}.nonce`, 64),
      balance: quantity(value.balance, `${where}.balance`, 256),
      code: value.code === undefined ? undefined : bytes(value.code, `${where}.code`),
      storage: Object.entries(storage).map(([slot, word]) => [word32(quantity(slot, `${where}.storage key ${slot}`, 256)), word32(quantity(word, `${where}.storage.${slot}`, 256))]),
    },
  ];
}

/** A number as anvil writes one: a JSON number, or a string in hex (0x…) or decimal; at most `bits` bits. */
function quantity(value: unknown, where: string, bits: number): bigint {
  let n: bigint;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) n = BigInt(value);
  else if (typeof value === 'string' && /^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(value)) n = BigInt(value);
  else throw new LoadError(`${where}: ${JSON.stringify(value)} is not a quantity (hex 0x…, decimal, or a JSON number below 2^53)`);
  if (n >= 1n << BigInt(bits)) throw new LoadError(`${where}: ${value} does not fit in ${bits} bits`);
  return n;
}

function bytes(value: unknown, where: string): Uint8Array {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw new LoadError(`${where}: not 0x-prefixed hex bytes`);
  return hexToBytes(value as PrefixedHexString);
}

function word32(n: bigint): Uint8Array {
  return hexToBytes(`0x${n.toString(16).padStart(64, '0')}`);
}

/** A dump block's transactions must be signed for this chain: a dump of another chain is refused whole. */
function checkChain(block: unknown, chainId: bigint): void {
  if (!isObject(block) || !Array.isArray(block.transactions)) return;
  for (const entry of block.transactions) {
    const tx = isObject(entry) && isObject(entry.transaction) ? entry.transaction : undefined;
    if (tx === undefined || tx.chainId === undefined) continue;
    const theirs = quantity(tx.chainId, 'blocks[].transactions[].chainId', 64);
    if (theirs !== chainId) {
      throw new LoadError(`the dump is of chain ${theirs} (its transactions are signed for it), and this node's chain is ${chainId}; start a node with --chain-id ${theirs} to load it`);
    }
  }
}
