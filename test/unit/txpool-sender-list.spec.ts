import { createTxFromRLP } from '@ethereumjs/tx';
import { expect } from 'chai';

import { maxCost } from '../../src/fees/fees.js';
import { SenderList } from '../../src/txpool/sender-list.js';
import type { PooledTx } from '../../src/txpool/types.js';
import { GWEI, osakaCommon, tx1559 } from '../helpers/pool-fixtures.js';

const common = osakaCommon();
let seq = 0;

async function ptx(nonce: number, cap = 2n * GWEI): Promise<PooledTx> {
  const raw = await tx1559(0, nonce, GWEI, cap);
  const tx = createTxFromRLP(raw, { common });
  const sender = tx.getSenderAddress();
  return { tx, hash: tx.hash(), hashHex: '', sender, senderHex: sender.toString(), raw, seq: seq++, nonce: tx.nonce };
}

/** pendingCount / pendingCost must equal a from-scratch recomputation. */
function check(list: SenderList): void {
  let count = 0;
  let cost = 0n;
  for (let n = list.commitNonce; list.byNonce.has(n); n++) {
    count++;
    cost += maxCost(list.byNonce.get(n)!.tx);
  }
  expect(list.pendingCount).to.equal(count);
  expect(list.pendingCost).to.equal(cost);
  expect(list.pending().length + list.queued().length).to.equal(list.size);
}

describe('txpool sender list bookkeeping', () => {
  it('keeps the pending run and its cost right through put, replace, remove and rebase', async () => {
    const txs = await Promise.all([0, 1, 2, 3, 4, 5].map((n) => ptx(n)));
    const list = new SenderList(txs[0].sender, 0n);
    for (const i of [5, 1, 0, 3]) {
      list.put(txs[i]);
      check(list);
    }
    expect(list.pendingEnd()).to.equal(2n);
    list.put(txs[2]);
    check(list);
    expect(list.pendingEnd()).to.equal(4n);
    list.put(await ptx(1, 5n * GWEI)); // replacement inside the run
    check(list);
    list.remove(2n); // demotes 3
    check(list);
    expect(list.pendingEnd()).to.equal(2n);
    list.put(txs[4]);
    list.put(txs[2]);
    check(list);
    expect(list.pendingEnd()).to.equal(6n);
    expect(list.rebase(3n).map((p) => Number(p.nonce))).to.deep.equal([0, 1, 2]);
    check(list);
    expect(list.highest()?.nonce).to.equal(5n);
    expect(list.rebase(9n)).to.have.length(3);
    expect(list.size).to.equal(0);
    check(list);
  });
});
