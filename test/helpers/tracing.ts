// Transactions for the tracing specs: the test contracts deployed, calls encoded, and mined
// transactions sent from dev accounts of the spec's choosing.
import { encodeFunctionData, type Abi, type Hex } from 'viem';
import { contracts, deployContract, type ContractName } from './contracts.js';
import type { TestNode } from './node.js';
import { devAddress, devKey, signTx, txHash } from './transactions.js';

export const encode = (name: ContractName, functionName: string, args: unknown[] = []): Hex =>
  encodeFunctionData({ abi: contracts()[name].abi as unknown as Abi, functionName, args });

export interface Deployed {
  relay: Hex;
  reverter: Hex;
  storage: Hex;
  emitter: Hex;
}

/** The contracts the tracing specs call, deployed from dev account 19. */
export async function deployTraced(node: TestNode): Promise<Deployed> {
  const key = devKey(19);
  return {
    relay: await deployContract(node, 'Relay', [], key),
    reverter: await deployContract(node, 'Reverter', [], key),
    storage: await deployContract(node, 'Storage', [], key),
    emitter: await deployContract(node, 'Emitter', [], key),
  };
}

/**
 * Sends dev account `account`'s transactions in one block (mining it with evm_mine when the node
 * does not mine by itself) and answers their hashes.
 */
export async function sendInOneBlock(node: TestNode, account: number, calls: { to: Hex; data: Hex; gas?: bigint; value?: bigint }[]): Promise<Hex[]> {
  const first = Number(BigInt(await node.call('eth_getTransactionCount', [devAddress(account), 'pending'])));
  const hashes: Hex[] = [];
  for (const [i, call] of calls.entries()) {
    const raw = await signTx({ key: devKey(account), nonce: first + i, to: call.to, data: call.data, value: call.value ?? 0n, gas: call.gas ?? 500_000n });
    hashes.push(txHash(raw));
    await node.call('eth_sendRawTransaction', [raw]);
  }
  if ((await node.call('eth_getTransactionReceipt', [hashes.at(-1)!])) === null) await node.call('evm_mine', []);
  return hashes;
}
