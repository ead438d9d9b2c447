import { RLP } from '@ethereumjs/rlp';
import { expect } from 'chai';
import { seal } from '../../src/storage/checksum.js';
import { decodeLegacyReceipts, decodeTxRecord, encodeTxRecord, type TxRecord } from '../../src/storage/layout.js';

const record: TxRecord = {
  blockHash: new Uint8Array(32).fill(1),
  blockNumber: 7n,
  blockTimestamp: 1_700_000_000n,
  index: 2,
  firstLogIndex: 3,
  type: 2,
  to: new Uint8Array(20).fill(9),
  effectiveGasPrice: 1_000_000_007n,
  blobGasPrice: 0n,
  receipt: {
    status: 1,
    cumulativeGasUsed: 63_000n,
    gasUsed: 21_000n,
    logs: [[new Uint8Array(20).fill(5), [new Uint8Array(32).fill(6)], Uint8Array.of(1, 2)]],
    sender: new Uint8Array(20).fill(4),
    blobGasUsed: undefined,
  },
};

describe('storage records', () => {
  it('reads back a transaction record as it was written', () => {
    expect(decodeTxRecord(encodeTxRecord(record))).to.deep.equal({ ...record, receipt: { ...record.receipt, stateRoot: undefined, contractAddress: undefined } });
  });

  it('refuses a transaction record whose bytes do not match the checksum stored with them', () => {
    const damaged = encodeTxRecord(record);
    damaged[40] ^= 0x01;
    expect(() => decodeTxRecord(damaged)).to.throw('a transaction record: its bytes do not match the checksum stored with them');
    expect(() => decodeTxRecord(encodeTxRecord(record).subarray(0, -4))).to.throw('a transaction record: its bytes do not match the checksum stored with them');
  });

  it('refuses a transaction record of another shape, naming what it read', () => {
    expect(() => decodeTxRecord(seal(RLP.encode([Uint8Array.of(1), Uint8Array.of(2)])))).to.throw('a transaction record: 10 fields were expected, it has 2');
    expect(() => decodeTxRecord(seal(RLP.encode(Uint8Array.of(1))))).to.throw('a transaction record: an RLP list was expected');
  });

  it('refuses a stored receipt whose logs are not a list', () => {
    const fields = RLP.decode(encodeTxRecord(record).subarray(0, -4)) as Uint8Array[][];
    fields[9][4] = Uint8Array.of(1);
    expect(() => decodeTxRecord(seal(RLP.encode(fields)))).to.throw("a stored receipt's logs: an RLP list was expected");
  });

  it('refuses a layout 1 receipt list that is not a list', () => {
    expect(() => decodeLegacyReceipts(RLP.encode(Uint8Array.of(1)))).to.throw('a layout 1 receipt list: an RLP list was expected');
  });
});
