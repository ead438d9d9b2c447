import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { createLegacyTx, createTx } from '@ethereumjs/tx';
import { bytesToHex, ecrecover, hexToBytes, randomBytes } from '@ethereumjs/util';
import { expect } from 'chai';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { KECCAK_HASHES_BEFORE_WASM, keccakInWasm, nativeCrypto, nativeCryptoStatus } from '../../src/crypto/native.js';

const KEY = hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');

describe('native crypto hooks', () => {
  /** The hook's digests against noble's, on inputs around the 136-byte rate and beyond. */
  function expectKeccakMatchesNoble(): void {
    const keccak = nativeCrypto.keccak256!;
    for (const size of [0, 1, 31, 32, 64, 135, 136, 137, 271, 272, 1000, 60_000]) {
      const message = randomBytes(size);
      expect(bytesToHex(keccak(message)), `${size} bytes`).to.equal(bytesToHex(keccak_256(message)));
    }
    // A view into a larger buffer hashes only its own bytes, and the digest is a plain Uint8Array.
    const big = randomBytes(100);
    const digest = keccak(big.subarray(10, 42));
    expect(bytesToHex(digest)).to.equal(bytesToHex(keccak_256(big.subarray(10, 42))));
    expect(Buffer.isBuffer(digest)).to.equal(false);
  }

  it('load here (the packages ship prebuilt binaries for this platform)', async () => {
    expect(await keccakInWasm()).to.equal(true);
    // libsecp256k1 loads with the first signature made or checked.
    nativeCrypto.ecsign!(keccak_256(KEY), KEY, { format: 'recovered', prehash: false, extraEntropy: false } as never);
    expect(nativeCryptoStatus()).to.equal('native crypto: keccak, secp256k1');
  });

  it('keccak-256 matches noble, in JavaScript or in WebAssembly', async () => {
    expectKeccakMatchesNoble();
    await keccakInWasm();
    expectKeccakMatchesNoble();
  });

  it('keccak-256 turns to WebAssembly only once hashing is busy', () => {
    // Fewer than the hashes a few blocks take, more than a start-up's.
    expect(KECCAK_HASHES_BEFORE_WASM).to.be.within(500, 10_000);
  });

  it('ecsign gives noble’s signature bytes, and ecrecover the same public key as @ethereumjs/util', () => {
    for (let i = 0; i < 20; i++) {
      const hash = keccak_256(randomBytes(40));
      const signature = nativeCrypto.ecsign!(hash, KEY, { format: 'recovered', prehash: false, extraEntropy: false } as never);
      expect(bytesToHex(signature as Uint8Array)).to.equal(bytesToHex(secp256k1.sign(hash, KEY, { format: 'recovered', prehash: false })));
      const recid = (signature as Uint8Array)[0];
      const r = (signature as Uint8Array).slice(1, 33);
      const s = (signature as Uint8Array).slice(33, 65);
      for (const [v, chainId] of [[27n + BigInt(recid), undefined], [31337n * 2n + 35n + BigInt(recid), 31337n]] as const) {
        expect(bytesToHex(nativeCrypto.ecrecover!(hash, v, r, s, chainId))).to.equal(bytesToHex(ecrecover(hash, v, r, s, chainId)));
      }
    }
  });

  it('rejects what the JavaScript recovery rejects', () => {
    const hash = keccak_256(randomBytes(8));
    const r = new Uint8Array(32).fill(1);
    expect(() => nativeCrypto.ecrecover!(hash, 29n, r, r)).to.throw();
    expect(() => nativeCrypto.ecrecover!(hash, 27n, new Uint8Array(32), r)).to.throw();
  });

  it('signs and recovers transactions exactly as without the hooks', () => {
    const plain = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: Hardfork.Osaka });
    const native = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: Hardfork.Osaka, customCrypto: nativeCrypto });
    const fields = { type: 2, nonce: 7n, gasLimit: 21_000n, to: '0x000000000000000000000000000000000000dEaD', value: 5n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, chainId: 31337n } as const;
    const a = createTx(fields, { common: plain }).sign(KEY);
    const b = createTx(fields, { common: native }).sign(KEY);
    expect(bytesToHex(b.serialize())).to.equal(bytesToHex(a.serialize()));
    expect(bytesToHex(b.hash())).to.equal(bytesToHex(a.hash()));
    expect(b.getSenderAddress().toString()).to.equal(a.getSenderAddress().toString());
    const legacy = createLegacyTx({ nonce: 1n, gasPrice: 10n ** 9n, gasLimit: 21_000n, to: fields.to }, { common: native }).sign(KEY);
    expect(legacy.getSenderAddress().toString()).to.equal('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
  });
});
