// Key derivation through node:crypto must give exactly the keys @scure/bip32 and @scure/bip39 give, and so must
// its fallback on a Node whose OpenSSL lacks secp256k1.
import { spawnSync } from 'node:child_process';
import { bytesToHex, privateToAddress, randomBytes } from '@ethereumjs/util';
import { mnemonicToSeedSync } from 'ethereum-cryptography/bip39/index.js';
import { HDKey } from 'ethereum-cryptography/hdkey.js';
import { expect } from 'chai';
import { addressOf, deriveChildKeys, mnemonicSeed } from '../../src/crypto/hd-keys.js';

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

  it('derives the keys @scure/bip32 derives, on hardened and normal steps', () => {
    for (const mnemonic of MNEMONICS) {
      const seed = mnemonicSeed(mnemonic);
      for (const path of ["m/44'/60'/0'/0", "m/44'/60'/7'/3", 'm/0/1']) {
        const expected = Array.from({ length: 5 }, (_, i) => bytesToHex(HDKey.fromMasterSeed(seed).derive(`${path}/${i}`).privateKey!));
        expect(deriveChildKeys(seed, path, 5).map(bytesToHex)).to.deep.equal(expected);
      }
    }
  });

  it('refuses a path that does not start at the master key', () => {
    expect(() => deriveChildKeys(mnemonicSeed(MNEMONICS[0]), "44'/60'", 1)).to.throw(/starts with m/);
  });

  it('gives a key the address @ethereumjs/util gives it', () => {
    for (let i = 0; i < 20; i++) {
      const key = randomBytes(32);
      expect(bytesToHex(addressOf(key))).to.equal(bytesToHex(privateToAddress(key)));
    }
    // The first dev account, as every dev node knows it.
    const [first] = deriveChildKeys(mnemonicSeed(MNEMONICS[0]), "m/44'/60'/0'/0", 1);
    expect(bytesToHex(addressOf(first!))).to.equal('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
  });

  it("derives the same keys and addresses where OpenSSL lacks secp256k1 (noble's public keys)", () => {
    // A Node without the curve, as some builds of OpenSSL are: node:crypto's list of curves without it.
    const withoutCurve = `import crypto from 'node:crypto'; import { syncBuiltinESMExports } from 'node:module';
      const curves = crypto.getCurves; crypto.getCurves = () => curves().filter((c) => c !== 'secp256k1'); syncBuiltinESMExports();`;
    const derive = `import { getCurves } from 'node:crypto';
      const { addressOf, deriveChildKeys, mnemonicSeed } = await import(${JSON.stringify(new URL('../../src/crypto/hd-keys.js', import.meta.url).href)});
      const keys = deriveChildKeys(mnemonicSeed(${JSON.stringify(MNEMONICS[0])}), "m/44'/60'/0'/0", 3);
      const hex = (b) => '0x' + Buffer.from(b).toString('hex');
      console.log(JSON.stringify({ curve: getCurves().includes('secp256k1'), keys: keys.map(hex), address: hex(addressOf(keys[0])) }));`;
    const run = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(withoutCurve)}`, '--input-type=module', '-e', derive], { encoding: 'utf8' });
    expect(run.status, run.stderr).to.equal(0);
    const seed = mnemonicSeed(MNEMONICS[0]);
    expect(JSON.parse(run.stdout)).to.deep.equal({
      curve: false,
      keys: [0, 1, 2].map((i) => bytesToHex(HDKey.fromMasterSeed(seed).derive(`m/44'/60'/0'/0/${i}`).privateKey!)),
      address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    });
  });
});
