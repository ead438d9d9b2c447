import { expect } from 'chai';
import { createPublicClient, http, type Abi } from 'viem';
import { contracts, deployContract } from '../../helpers/contracts.js';
import { loadContract } from '../../../shared/contract/document.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';
import { expectRpcError } from '../../helpers/transactions.js';

/** The contract's example, whose token is the first contract dev account 0 deploys on a fresh chain. */
const example = (loadContract().methods as Array<{ name: string; examples: Array<{ params: Array<{ value: string }> }> }>).find((m) => m.name === 'anvil_dealERC20')!.examples[0]!;

describe('anvil_dealERC20', () => {
  let node: TestNode;
  let token: `0x${string}`;
  const balanceOf = (holder: string) =>
    createPublicClient({ transport: http(node.url) }).readContract({ address: token, abi: contracts().Token.abi as unknown as Abi, functionName: 'balanceOf', args: [holder] });
  beforeEach(async () => {
    node = await startTestNode();
    token = await deployContract(node, 'Token', ['Test', 'TST', 10n ** 24n]);
  });
  afterEach(() => node.destroy());

  it("sets the holder's balance: balanceOf answers the amount, and answers null", async () => {
    const [holder, at, amount] = example.params.map((p) => p.value);
    expect(at).to.equal(token);
    expect(await node.call('anvil_dealERC20', [holder!, at!, amount!])).to.equal(null);
    expect(await balanceOf(holder!)).to.equal(BigInt(amount!));
    expect(await balanceOf(DEV_ADDRESSES[0])).to.equal(10n ** 24n);
  });

  it('sets the balance of a holder that has some already', async () => {
    await node.call('anvil_dealERC20', [DEV_ADDRESSES[0], token, '0x7']);
    expect(await balanceOf(DEV_ADDRESSES[0])).to.equal(7n);
  });

  it('refuses a contract whose balanceOf reads no balance slot, with -32000', async () => {
    await node.call('anvil_setCode', ['0x00000000000000000000000000000000000e2020', '0x602a60005260206000f3']);
    await expectRpcError(node.call('anvil_dealERC20', [DEV_ADDRESSES[1], '0x00000000000000000000000000000000000e2020', '0x1']), -32000, 'Unable to set ERC20 balance, no slot found');
  });
});
