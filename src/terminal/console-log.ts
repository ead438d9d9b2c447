// Solidity's console.log (Hardhat's console.sol, forge-std's console): a static call to a fixed
// address with no code, carrying the arguments ABI-encoded behind one selector per overload. The
// node sees those calls in the EVM and prints the arguments. The selector table is built from the
// overloads' canonical signatures; the ABI decoding is micro-eth-signer's, loaded on the first log.
import { bytesToHex, equalsBytes, hexToBytes, toChecksumAddress, utf8ToBytes, type Address } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { printable } from '../printable.js';

export const CONSOLE_ADDRESS = '0x000000000000000000636f6e736f6c652e6c6f67';
const CONSOLE_BYTES = hexToBytes(CONSOLE_ADDRESS);

/** Whether a message goes to the console address (compared from the end, where addresses differ most). */
export function isConsoleCall(to: Address | undefined): boolean {
  return to !== undefined && equalsBytes(to.bytes, CONSOLE_BYTES);
}

/** The four types console.log mixes in its 1 to 4 argument overloads. */
const MIXED = ['uint256', 'string', 'bool', 'address'];

function* tuples(length: number): Generator<string[]> {
  if (length === 0) {
    yield [];
    return;
  }
  for (const head of MIXED) for (const rest of tuples(length - 1)) yield [head, ...rest];
}

/**
 * The argument types of every console.log overload: `log()`, the single-argument `logInt`,
 * `logBytes`, `logBytes1`…`logBytes32` (all sent as `log(<type>)`), every mix of uint256, string,
 * bool and address from one to four arguments, and forge-std's `log(string,int256)`.
 */
export function consoleOverloads(): string[][] {
  const overloads: string[][] = [[], ['int256'], ['bytes'], ['string', 'int256']];
  for (let size = 1; size <= 32; size++) overloads.push([`bytes${size}`]);
  for (let length = 1; length <= 4; length++) overloads.push(...tuples(length));
  return overloads;
}

const signature = (types: readonly string[]) => `log(${types.join(',')})`;
const selectorOf = (text: string) => bytesToHex(keccak256(utf8ToBytes(text)).subarray(0, 4));

/** A console.log call's arguments as one line, or what kept them from being read. */
export type ConsoleDecoder = (data: Uint8Array) => string;

function formatValue(type: string, value: unknown): string {
  if (type === 'address') return toChecksumAddress(value as string);
  if (type === 'string') return printable(value as string);
  if (type.startsWith('bytes')) return bytesToHex(value as Uint8Array);
  return String(value);
}

async function createDecoder(): Promise<ConsoleDecoder> {
  const { Decoder } = await import('micro-eth-signer/abi.js');
  const decoder = new Decoder();
  const overloads = consoleOverloads();
  decoder.add(
    CONSOLE_ADDRESS,
    overloads.map((types) => ({ type: 'function' as const, name: 'log', inputs: types.map((type, i) => ({ name: `p${i}`, type })), outputs: [] })),
  );
  const typesOf = new Map(overloads.map((types) => [signature(types), types]));
  // Older versions of Hardhat's console.sol computed their selectors from `uint` and `int` (log(uint) for
  // log(uint256)): the same arguments behind another selector, read as the canonical overload.
  const legacy = new Map<string, Uint8Array>();
  for (const types of overloads) {
    const old = types.map((type) => (type === 'uint256' ? 'uint' : type === 'int256' ? 'int' : type));
    if (old.some((type, i) => type !== types[i])) legacy.set(selectorOf(signature(old)), hexToBytes(selectorOf(signature(types))));
  }
  return (data) => {
    if (data.length < 4) return `(a call without a selector: ${bytesToHex(data)})`;
    const canonical = legacy.get(bytesToHex(data.subarray(0, 4)));
    const input = canonical === undefined ? data : Uint8Array.from([...canonical, ...data.subarray(4)]);
    let decoded;
    try {
      decoded = decoder.decode(CONSOLE_ADDRESS, input);
    } catch (error) {
      return `(arguments that do not decode: ${(error as Error).message})`;
    }
    const info = Array.isArray(decoded) ? decoded[0] : decoded;
    const types = info === undefined ? undefined : typesOf.get(info.signature);
    if (info === undefined || types === undefined) return `(no console.log overload has the selector ${bytesToHex(data.subarray(0, 4))})`;
    const values = types.length === 1 ? [info.value] : types.map((_, i) => (info.value as Record<string, unknown>)[`p${i}`]);
    return types.map((type, i) => formatValue(type, values[i])).join(' ');
  };
}

let loading: Promise<ConsoleDecoder> | undefined;

/** The decoder, built once, on the first console.log the node sees (the ABI library takes ~0.1 s to load). */
export function consoleDecoder(): Promise<ConsoleDecoder> {
  loading ??= createDecoder();
  return loading;
}
