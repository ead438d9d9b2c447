import { deployContract } from './contracts.js';
import { startTestNode, type TestNode } from './node.js';
import { devAddress, SINK } from './transactions.js';

type Hex = `0x${string}`;

/** A node with a contract deployed and three transfers to SINK, one block each: what the ots_ specs browse. */
export interface OtsChain {
  node: TestNode;
  contract: Hex;
  transfers: Hex[];
  transferBlock: number;
}

export async function startOtsChain(): Promise<OtsChain> {
  const node = await startTestNode();
  const contract = await deployContract(node, 'Storage');
  const transfers: Hex[] = [];
  for (let i = 0; i < 3; i++) {
    transfers.push((await node.call('eth_sendTransaction', [{ from: devAddress(0), to: SINK, value: '0x1', input: '0xdeadbeef00' }])) as Hex);
  }
  const transferBlock = Number((await node.call('eth_getTransactionReceipt', [transfers[2]]))!.blockNumber);
  return { node, contract, transfers, transferBlock };
}
