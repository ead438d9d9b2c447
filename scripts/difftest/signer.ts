// Transactions for the cases, signed once (by the edited engine, with the node's libsecp256k1) and run by both
// engines from the same bytes.
import { deriveAccounts, DEV_MNEMONIC } from '../../src/chain/dev-accounts.js';
import { devCommon } from './case.js';
import type { Common, Engine } from './engine.js';

export const SENDERS = deriveAccounts(DEV_MNEMONIC, 3);

export class Signer {
  private readonly common: Common;
  private readonly nonces = new Map<number, bigint>();
  constructor(private readonly e: Engine) {
    this.common = devCommon(e);
  }

  /** Nonces start again at 0 (a new case's world). */
  reset(): void {
    this.nonces.clear();
  }

  /** `data` signed by sender `from` (its next nonce unless given), serialized. */
  sign(from: number, data: Record<string, unknown>): Uint8Array {
    const nonce = (data.nonce as bigint | undefined) ?? this.nonces.get(from) ?? 0n;
    this.nonces.set(from, nonce + 1n);
    const tx = this.e.tx.createTx({ chainId: 31337n, ...data, nonce } as never, { common: this.common });
    return tx.sign(SENDERS[from]!.privateKey).serialize();
  }
}
