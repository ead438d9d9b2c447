// console.log's overloads and their decoding, checked against viem's ABI encoder.
import { expect } from 'chai';
import { bytesToHex, hexToBytes, keccak256, toBytes, encodeAbiParameters, type AbiParameter } from 'viem';
import { consoleDecoder, consoleOverloads } from '../../src/terminal/console-log.js';

const selector = (signature: string) => keccak256(toBytes(signature)).slice(0, 10) as `0x${string}`;

/** The call data console.sol sends for `signature` with `values`, built by viem. */
function payload(signature: string, types: string[], values: unknown[]): Uint8Array {
  const args = encodeAbiParameters(types.map((type) => ({ type })) as AbiParameter[], values);
  return hexToBytes(`${selector(signature)}${args.slice(2)}`);
}

describe('console.log decoding', () => {
  it('knows every overload of console.sol: log(), int256, bytes, bytes1…32, and each mix of uint256, string, bool and address up to four', () => {
    const overloads = consoleOverloads().map((types) => `log(${types.join(',')})`);
    expect(overloads).to.have.length(4 + 32 + 4 + 16 + 64 + 256);
    expect(new Set(overloads.map(selector)).size).to.equal(overloads.length);
    expect(overloads).to.include.members(['log()', 'log(int256)', 'log(bytes)', 'log(bytes1)', 'log(bytes32)', 'log(string,int256)', 'log(address,bool,string,uint256)']);
  });

  it('prints each argument by its type: a string as is, numbers in decimal, booleans, checksummed addresses, bytes in hex', async () => {
    const decode = await consoleDecoder();
    const address = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
    expect(decode(payload('log(bool,address,uint256,string)', ['bool', 'address', 'uint256', 'string'], [true, address, 2n ** 255n, 'héllo']))).to.equal(
      `true 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 ${2n ** 255n} héllo`,
    );
    expect(decode(payload('log(int256)', ['int256'], [-42n]))).to.equal('-42');
    expect(decode(payload('log(bytes32)', ['bytes32'], [`0x${'ab'.repeat(32)}`]))).to.equal(`0x${'ab'.repeat(32)}`);
    expect(decode(payload('log(bytes)', ['bytes'], ['0x0102']))).to.equal('0x0102');
    expect(decode(hexToBytes(selector('log()')))).to.equal('');
  });

  it('reads the selectors older console.sol versions computed from uint and int as the uint256 and int256 overloads', async () => {
    const decode = await consoleDecoder();
    expect(decode(payload('log(uint,string)', ['uint256', 'string'], [7n, 'seven']))).to.equal('7 seven');
    expect(decode(payload('log(int)', ['int256'], [-7n]))).to.equal('-7');
  });

  it('says what it could not read instead of throwing', async () => {
    const decode = await consoleDecoder();
    expect(decode(hexToBytes('0x12345678'))).to.equal('(no console.log overload has the selector 0x12345678)');
    expect(decode(hexToBytes(selector('log(string)')))).to.match(/^\(arguments that do not decode: .+\)$/);
    expect(decode(hexToBytes('0x01'))).to.equal(`(a call without a selector: ${bytesToHex(hexToBytes('0x01'))})`);
  });
});
