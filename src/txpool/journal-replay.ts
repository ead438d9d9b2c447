/**
 * The pool's journal read back at open: every journaled transaction decoded again (its sender
 * recovered, or the recorded one of an impersonated account), those whose nonce the state has spent
 * or that no longer decode dropped, and the rest pooled in arrival order, the cheapest shed when
 * the pool's limit was lowered between runs.
 */
import { TransactionType } from '@ethereumjs/tx';
import { Address, bytesToHex, equalsBytes } from '@ethereumjs/util';

import { recoverSender } from './admission.js';
import { loadKzg } from '../crypto/kzg.js';
import { decodeTx, envelopeType } from './decode.js';
import { withSender } from './impersonation.js';
import type { Journal, JournalEntry, JournalOp } from './journal.js';
import type { PoolIndex } from './pool-index.js';
import type { PoolEnv, PooledTx } from './types.js';

/** Pools what `journal` holds into the empty `index`; answers the sequence number the next admission takes. */
export async function replayJournal(journal: Journal, env: PoolEnv, index: PoolIndex, limit: number): Promise<number> {
  const { common } = env;
  const dels: JournalOp[] = [];
  const bySender = new Map<string, PooledTx[]>();
  let maxSeq = -1;
  const entries = await journal.readAll();
  if (entries.some((entry) => envelopeType(entry.raw) === TransactionType.BlobEIP4844)) await loadKzg();
  for (const entry of entries) {
    if (entry.seq > maxSeq) maxSeq = entry.seq;
    const ptx = entry.seq < 0 ? undefined : pooledFrom(entry, common);
    if (ptx === undefined || !equalsBytes(ptx.hash, entry.key)) {
      dels.push(journal.delOp(entry.key));
      continue;
    }
    const group = bySender.get(ptx.senderHex);
    if (group === undefined) bySender.set(ptx.senderHex, [ptx]);
    else group.push(ptx);
  }

  for (const group of bySender.values()) {
    const { nonce } = await env.account(group[0].sender);
    group.sort((a, b) => a.seq - b.seq);
    for (const ptx of group) {
      if (ptx.nonce < nonce) {
        dels.push(journal.delOp(ptx.hash));
        continue;
      }
      // Same sender+nonce twice cannot come from add(); keep the later arrival.
      const clash = index.senderList(ptx.senderHex)?.get(ptx.nonce);
      if (clash !== undefined) {
        index.detach(clash);
        dels.push(journal.delOp(clash.hash));
      }
      index.attach(ptx, nonce);
    }
  }
  // Over capacity (the limit was lowered between runs): shed the cheapest.
  const baseFee = env.nextBaseFee();
  while (index.count > limit) {
    const low = index.cheapest(baseFee)!;
    const victim = index.senderList(low.ptx.senderHex)!.highest()!;
    index.detach(victim);
    dels.push(journal.delOp(victim.hash));
  }
  await journal.write(dels);
  return maxSeq + 1;
}

/** Rebuild a PooledTx from a journal entry; undefined if it no longer decodes or has no valid sender. */
function pooledFrom({ raw, seq, sender: recorded }: JournalEntry, common: PoolEnv['common']): PooledTx | undefined {
  try {
    const decoded = decodeTx(raw, { common });
    const impersonated = recorded === undefined ? undefined : new Address(recorded);
    const tx = impersonated === undefined ? decoded : withSender(raw, common, impersonated);
    const sender = impersonated ?? recoverSender(tx);
    const hash = tx.hash();
    return Object.freeze({
      tx,
      hash,
      hashHex: bytesToHex(hash),
      sender,
      senderHex: sender.toString(),
      raw,
      seq,
      nonce: tx.nonce,
      impersonated: impersonated !== undefined,
    });
  } catch {
    return undefined;
  }
}
