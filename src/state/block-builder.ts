import type { TypedTransaction } from '@ethereumjs/tx';
import type { BlockBuilder, RunTxResult } from '@ethereumjs/vm';

/** What a BlockBuilder keeps of the transactions it ran: its private lists, which its roots, receipts and gas come from. */
export interface BuilderInternals {
  transactions: TypedTransaction[];
  transactionResults: RunTxResult[];
}

/**
 * The one adapter that reaches into @ethereumjs/vm's BlockBuilder: the miner hides its list during
 * each transaction (producer/block-assembly.ts), the simulator records runs it made itself
 * (simulation/simulate.ts).
 */
export const builderInternals = (builder: BlockBuilder): BuilderInternals => builder as unknown as BuilderInternals;
