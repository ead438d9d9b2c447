import { expect } from 'chai';
import { HDNodeWallet, Mnemonic } from 'ethers';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../../helpers/node.js';

const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

/** The first `count` addresses of `mnemonic` on the standard path m/44'/60'/0'/0/i, derived by ethers. */
function derive(mnemonic: string, count: number): string[] {
  const seed = Mnemonic.fromPhrase(mnemonic);
  return Array.from({ length: count }, (_, i) => HDNodeWallet.fromMnemonic(seed, `m/44'/60'/0'/0/${i}`).address.toLowerCase());
}

describe('eth_accounts', () => {
  let node: TestNode;
  before(async () => {
    node = await startTestNode();
  });
  after(() => node.destroy());

  it('answers the 20 dev accounts of the test mnemonic, in derivation order', async () => {
    const accounts = await node.call('eth_accounts', []);
    expect(accounts).to.deep.equal(derive(DEV_MNEMONIC, 20));
    expect(accounts.slice(0, 3)).to.deep.equal([...DEV_ADDRESSES]);
  });

  it('answers the addresses in lowercase', async () => {
    for (const address of await node.call('eth_accounts', [])) expect(address).to.equal(address.toLowerCase());
  });

  it('lists an impersonated address after the dev accounts while it is impersonated, as anvil does', async () => {
    const stranger = '0x00000000000000000000000000000000000a11ce';
    await node.call('anvil_impersonateAccount', [stranger]);
    expect((await node.call('eth_accounts', [])).slice(20)).to.deep.equal([stranger]);
    await node.call('anvil_impersonateAccount', [DEV_ADDRESSES[1]]);
    expect(await node.call('eth_accounts', [])).to.have.length(21);
    await node.call('anvil_stopImpersonatingAccount', [stranger]);
    expect(await node.call('eth_accounts', [])).to.deep.equal(derive(DEV_MNEMONIC, 20));
  });

  it('answers as many accounts as --accounts asks for, from --mnemonic', async () => {
    const mnemonic = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
    const other = await startTestNode({ accounts: 3, mnemonic, genesisFlagsGiven: true });
    try {
      expect(await other.call('eth_accounts', [])).to.deep.equal(derive(mnemonic, 3));
    } finally {
      await other.destroy();
    }
  });
});
