// RLP for every @ethereumjs package, through micro-eth-signer's codec. @ethereumjs/rlp copies each
// decoded item out of its input, decodes length prefixes through hex strings and builds an encoding
// from one small array per item; the tries, blocks, receipts and transactions go through it all
// the time (measured on anvil_mine of 20,000 blocks: a fifth of the node's time, and more in
// garbage collection). micro-eth-signer's measures an encoding first and writes it once, and
// decodes into views of its input: on a trie branch node 0.7 µs instead of 2.5 to encode, 0.4
// instead of 2.8 to decode. It is as strict (canonical lengths and single bytes, items within
// their list, nothing left over); only its error messages differ.
//
// @ethereumjs's packages call `RLP.encode` and `RLP.decode` on the one object @ethereumjs/rlp
// exports, so they are replaced there. What micro-eth-signer's codec takes otherwise (numbers,
// strings, a stream of items, an empty input) keeps @ethereumjs/rlp's own handling.
import { RLP, type Input, type NestedUint8Array } from '@ethereumjs/rlp';

/** Whether `input` is bytes, or lists of lists … of bytes: what both codecs read the same way. */
function onlyBytes(input: Input): input is Uint8Array | NestedUint8Array {
  if (input instanceof Uint8Array) return true;
  if (!Array.isArray(input)) return false;
  for (const item of input) if (!onlyBytes(item)) return false;
  return true;
}

let installing: Promise<void> | undefined;

/**
 * Points @ethereumjs/rlp's `RLP.encode` and `RLP.decode` at micro-eth-signer's codec, once. Decoded
 * items are views of the input (as they are in micro-eth-signer's own use): nothing in the node or
 * the @ethereumjs packages writes into decoded bytes. The codec's module loads micro-eth-signer's
 * helpers and curves, so this waits for the first block or call (see state/vm.ts): a node that only
 * reads starts as fast without it.
 */
export function useFastRlp(): Promise<void> {
  installing ??= import('micro-eth-signer/core/rlp.js').then(({ RLP: codec }) => {
    const { encode, decode } = RLP;
    RLP.encode = (input: Input): Uint8Array => (onlyBytes(input) ? codec.encode(input) : encode(input));
    RLP.decode = ((input: Input, stream?: boolean) =>
      stream === true ? decode(input, true) : input instanceof Uint8Array && input.length > 0 ? codec.decode(input) : decode(input)) as typeof RLP.decode;
  });
  return installing;
}
