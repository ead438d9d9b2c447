/**
 * How a transaction enters the node from a caller, whatever method brought it: admitted to the pool,
 * mined at once under automine, and acknowledged only once it is journaled or has landed in a block
 * (a kill -9 after the answer loses nothing). Every way to submit goes through here, so none repeats
 * the nonce lock or the journal's protocol.
 */
import type { Address } from '@ethereumjs/util';
import type { TxPool } from '../txpool/pool.js';
import { Mutex } from '../txpool/mutex.js';
import type { PooledTx } from '../txpool/types.js';
import type { MiningControl } from './mining-control.js';

/** A transaction the node made for a sender: signed with the sender's key, or carrying an impersonated sender's placeholder signature. */
export interface MadeTransaction {
  raw: Uint8Array;
  impersonated: boolean;
}

export class Submission {
  // Picking a nonce and admitting the transaction made with it must not interleave between two
  // submissions, or both pick the same nonce (geth holds a nonce lock too).
  private readonly nonceLock = new Mutex();

  constructor(
    private readonly pool: Pick<TxPool, 'accept' | 'addImpersonated' | 'persist' | 'pendingNonce'>,
    private readonly mining: Pick<MiningControl, 'submitted'>,
  ) {}

  /** A signed transaction, encoded (eth_sendRawTransaction): its hash, once acknowledged. */
  async send(raw: Uint8Array): Promise<string> {
    return this.acknowledge(await this.pool.accept(raw));
  }

  /**
   * A transaction the node makes for `sender` (eth_sendTransaction and its kin): `make` is given
   * `nonce`, or the sender's next one after what the pool holds, under the nonce lock. Its hash, once
   * acknowledged.
   */
  async sendFrom(sender: Address, nonce: bigint | undefined, make: (nonce: bigint) => MadeTransaction): Promise<string> {
    const pooled = await this.nonceLock.run(async () => {
      const made = make(nonce ?? (await this.pool.pendingNonce(sender.toString())));
      return made.impersonated ? this.pool.addImpersonated(made.raw, sender) : this.pool.accept(made.raw);
    });
    return this.acknowledge(pooled);
  }

  /**
   * An accepted transaction is journaled only if it is still pooled once automine is done with it:
   * usually it is mined by then, and a transaction in a landed block needs no journal.
   */
  private async acknowledge({ hashHex }: PooledTx): Promise<string> {
    await this.mining.submitted(hashHex);
    await this.pool.persist(hashHex);
    // Always keccak of the submitted bytes: ethers refuses a node whose hash differs from its own.
    return hashHex;
  }
}
