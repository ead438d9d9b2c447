import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util';

/** An EVM log as the EVM emits it: [address, topics, data]. */
export type RawLog = [address: Uint8Array, topics: Uint8Array[], data: Uint8Array];

/**
 * What the node keeps per executed transaction: the consensus receipt plus what the RPC reports
 * and would otherwise have to recompute (the sender costs a signature recovery).
 */
export interface StoredReceipt {
  /** 1 success, 0 failure; undefined before Byzantium, where `stateRoot` stands instead */
  status?: 0 | 1;
  stateRoot?: Uint8Array;
  cumulativeGasUsed: bigint;
  gasUsed: bigint;
  logs: RawLog[];
  sender: Uint8Array;
  contractAddress?: Uint8Array;
  blobGasUsed?: bigint;
}

const int = (n: bigint) => bigIntToUnpaddedBytes(n);
const optionalBytes = (b: Uint8Array | undefined) => b ?? new Uint8Array();

export function encodeReceipts(receipts: StoredReceipt[]): Uint8Array {
  return RLP.encode(
    receipts.map((r) => [
      r.status === undefined ? new Uint8Array() : int(BigInt(r.status + 1)),
      optionalBytes(r.stateRoot),
      int(r.cumulativeGasUsed),
      int(r.gasUsed),
      r.logs,
      r.sender,
      optionalBytes(r.contractAddress),
      r.blobGasUsed === undefined ? new Uint8Array() : int(r.blobGasUsed + 1n),
    ]),
  );
}

export function decodeReceipts(bytes: Uint8Array): StoredReceipt[] {
  return (RLP.decode(bytes) as unknown as Uint8Array[][]).map((fields) => {
    const [status, stateRoot, cumulative, gasUsed, logs, sender, contract, blobGas] = fields as unknown as [
      Uint8Array, Uint8Array, Uint8Array, Uint8Array, RawLog[], Uint8Array, Uint8Array, Uint8Array,
    ];
    return {
      status: status.length === 0 ? undefined : (Number(bytesToBigInt(status)) - 1) as 0 | 1,
      stateRoot: stateRoot.length === 0 ? undefined : stateRoot,
      cumulativeGasUsed: bytesToBigInt(cumulative),
      gasUsed: bytesToBigInt(gasUsed),
      logs,
      sender,
      contractAddress: contract.length === 0 ? undefined : contract,
      blobGasUsed: blobGas.length === 0 ? undefined : bytesToBigInt(blobGas) - 1n,
    };
  });
}

