// anvil_dumpState / anvil_loadState and --dump-state / --load-state: the head's state in anvil's format, out and in
// (src/dump/ says how it is written and read).
import { Address } from '@ethereumjs/util';
import type { Chain } from '../chain/chain.js';
import { dumpState } from '../dump/dump.js';
import { loadState, unzipped } from '../dump/load.js';
import { TrieWalker } from '../dump/walk.js';
import type { StateEditor } from './state-edits.js';

export class StateDumps {
  constructor(
    private readonly chain: Chain,
    private readonly editor: StateEditor,
  ) {}

  /**
   * The head's state as JSON text in pieces, read as it is consumed. It needs no turn of the miner's: the
   * trie nodes and preimages of the state it starts from are never deleted, whatever lands meanwhile.
   */
  async *dump(): AsyncGenerator<string> {
    const { chain } = this;
    const head = chain.head();
    const stateRoot = chain.headStateRoot();
    const view = await chain.state.at(stateRoot);
    const records = (await chain.blocks.records(head)) ?? [];
    yield* dumpState({
      head,
      stateRoot,
      senders: head.transactions.map((tx, i) => (records[i] === undefined ? tx.getSenderAddress() : new Address(records[i].receipt.sender))),
      blobGasPrice: head.header.excessBlobGas === undefined ? 1n : head.header.getBlobGasPrice(),
      walker: await TrieWalker.over(chain.state.section),
      preimages: chain.state.preimages,
      code: (address) => view.getCode(address),
      forked: chain.fork !== undefined,
    });
  }

  /**
   * Merges the dump in `chunks` (gzipped or plain JSON) into the head's state as one state edit: every
   * account lands, or, when the dump is refused part-way, none does. Answers how many accounts it held.
   * `ownChain`: a dump this node made before its chain id changed (anvil_setChainId), whose transactions are
   * signed for the id it had.
   */
  load(chunks: AsyncIterable<Uint8Array>, { ownChain = false } = {}): Promise<number> {
    const chainId = ownChain ? undefined : this.chain.commons.base.chainId();
    return this.editor.load((put) => loadState(unzipped(chunks), { chainId, put }));
  }
}
