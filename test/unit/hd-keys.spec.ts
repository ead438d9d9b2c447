// Key derivation on libsecp256k1 must give exactly the keys @scure/bip32 and @scure/bip39 give.
import { bytesToHex } from '@ethereumjs/util';
import { mnemonicToSeedSync } from 'ethereum-cryptography/bip39/index.js';
import { HDKey } from 'ethereum-cryptography/hdkey.js';
import { expect } from 'chai';
import { deriveChildKeys, mnemonicSeed } from '../../src/crypto/hd-keys.js';
import { nativeKeys } from '../../src/crypto/native.js';

const MNEMONICS = [
  'test test test test test test test test test test test junk',
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
  'légal winner thank year wave sausage worth useful legal winner thank yellow',
];

describe('HD key derivation', () => {
  it('derives the BIP-39 seed @scure/bip39 derives, NFKD-normalised', () => {
    for (const mnemonic of MNEMONICS) expect(bytesToHex(mnemonicSeed(mnemonic))).to.equal(bytesToHex(mnemonicToSeedSync(mnemonic)));
  });

  it('refuses a mnemonic of a word count BIP-39 does not define, as @scure/bip39 does', () => {
    expect(() => mnemonicSeed('test test test')).to.throw('Invalid mnemonic');
    expect(() => mnemonicToSeedSync('test test test')).to.throw('Invalid mnemonic');
  });

  it('derives the keys @scure/bip32 derives, on hardened and normal steps', function () {
    if (nativeKeys === undefined) this.skip();
    for (const mnemonic of MNEMONICS) {
      const seed = mnemonicSeed(mnemonic);
      for (const path of ["m/44'/60'/0'/0", "m/44'/60'/7'/3", 'm/0/1']) {
        const expected = Array.from({ length: 5 }, (_, i) => bytesToHex(HDKey.fromMasterSeed(seed).derive(`${path}/${i}`).privateKey!));
        expect(deriveChildKeys(seed, path, 5).map(bytesToHex)).to.deep.equal(expected);
      }
    }
  });

  it('refuses a path that does not start at the master key', function () {
    if (nativeKeys === undefined) this.skip();
    expect(() => deriveChildKeys(mnemonicSeed(MNEMONICS[0]), "44'/60'", 1)).to.throw(/starts with m/);
  });
});
