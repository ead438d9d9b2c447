// anvil_dumpState and --dump-state: the head's state in anvil's format, written as it is read — accounts one after
// the other from a walk of the state trie, never the whole state in memory — as JSON text in pieces of ~64 KiB.
import type { Block } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { Address, bytesToHex, createAccountFromRLP, equalsBytes, KECCAK256_NULL, KECCAK256_RLP, setLengthLeft } from '@ethereumjs/util';
import type { PreimageStore } from '../state/preimages.js';
import { anvilBlock, blockEnv } from './anvil-format.js';
import type { TrieWalker } from './walk.js';

/** The state cannot be dumped (it holds keys the node never recorded, or its trie is incomplete). */
export class DumpError extends Error {}

export interface DumpSource {
  head: Block;
  /** the head's state root, state edits included */
  stateRoot: Uint8Array;
  /** the senders of the head's transactions */
  senders: Address[];
  blobGasPrice: bigint;
  walker: TrieWalker;
  preimages: PreimageStore;
  /** an account's code, by its address and code hash */
  code(address: Address, codeHash: Uint8Array): Promise<Uint8Array>;
  /**
   * A forked chain's trie holds the node's own writes on top of the remote's nodes, which it does not hold:
   * the dump holds the accounts and slots the node wrote (what anvil's dump of a fork holds: what it touched).
   */
  forked: boolean;
}

const CHUNK = 64 * 1024;

/** The dump as JSON text, in pieces. */
export async function* dumpState(source: DumpSource): AsyncGenerator<string> {
  let buffered: string[] = [];
  let size = 0;
  const out = function* (text: string) {
    buffered.push(text);
    size += text.length;
    if (size >= CHUNK) {
      yield buffered.join('');
      buffered = [];
      size = 0;
    }
  };
  yield* out(`{"block":${JSON.stringify(blockEnv(source.head, source.blobGasPrice))},"accounts":{`);
  let first = true;
  for await (const { hash, value } of source.walker.leaves(source.stateRoot)) {
    const address = known(source, hash, 20, 'an account');
    if (address === undefined) continue;
    const account = createAccountFromRLP(value);
    const code = equalsBytes(account.codeHash, KECCAK256_NULL) ? new Uint8Array() : await source.code(new Address(address), account.codeHash);
    yield* out(`${first ? '' : ','}"${bytesToHex(address)}":{"nonce":${account.nonce},"balance":"0x${account.balance.toString(16)}","code":"${bytesToHex(code)}","storage":{`);
    first = false;
    if (!equalsBytes(account.storageRoot, KECCAK256_RLP)) {
      let firstSlot = true;
      for await (const slot of source.walker.leaves(account.storageRoot)) {
        const key = known(source, slot.hash, 32, `a storage slot of ${bytesToHex(address)}`);
        if (key === undefined) continue;
        yield* out(`${firstSlot ? '' : ','}"${bytesToHex(key)}":"${bytesToHex(setLengthLeft(RLP.decode(slot.value) as Uint8Array, 32))}"`);
        firstSlot = false;
      }
    }
    yield* out('}}');
  }
  if (!source.forked && source.walker.missing > 0) {
    throw new DumpError(`the state at block ${source.head.header.number} lacks ${source.walker.missing} of its trie nodes: the data dir is damaged`);
  }
  const { head, senders } = source;
  yield* out(`},"best_block_number":${head.header.number},"blocks":[${JSON.stringify(anvilBlock(head, senders))}],"transactions":[],"historical_states":null}`);
  if (buffered.length > 0) yield buffered.join('');
}

/** The key whose hash is `hash`, or undefined where a fork's unrecorded key may stand (the remote's, passed over). */
function known(source: DumpSource, hash: Uint8Array, length: number, what: string): Uint8Array | undefined {
  const key = source.preimages.get(hash);
  if (key !== undefined && key.length === length) return key;
  if (source.forked) return undefined;
  throw new DumpError(
    `the state holds ${what} whose key the node never recorded (its hash is ${bytesToHex(hash)}): it was written before this node kept preimages (an older data dir), so it cannot be listed`,
  );
}
