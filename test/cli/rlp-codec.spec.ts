// The node decodes RLP through micro-eth-signer's codec once it executes (codec/rlp.ts), and a node
// that only reads never loads it. A malformed transaction must be refused in the same words either
// way: read from a fresh child process, where nothing has switched the codec before the first send.
import { expect } from 'chai';
import { killAll, listening, runCli } from '../helpers/cli.js';
import { rpc, RpcCallError } from '../helpers/rpc.js';

/** The error a send of `raw` is answered with. */
async function refusal(url: string, raw: string): Promise<RpcCallError> {
  try {
    await rpc(url, 'eth_sendRawTransaction', [raw]);
  } catch (error) {
    if (error instanceof RpcCallError) return error;
    throw error;
  }
  throw new Error(`${raw} was accepted`);
}

describe('RLP codec switch (a child node)', function () {
  this.timeout(60_000);
  afterEach(() => killAll());

  it('refuses a malformed transaction in the same words before the first block and after it', async () => {
    const url = await listening(runCli(['start', '--port', '0', '--no-mining']));
    // A list whose only item runs past the list's end, and a valid list with a byte left over.
    const malformed = ['0xc28301020304', '0x02c28301020304', '0xc0c0'];
    const before = await Promise.all(malformed.map((raw) => refusal(url, raw)));
    await rpc(url, 'evm_mine');
    const after = await Promise.all(malformed.map((raw) => refusal(url, raw)));
    expect(after.map((e) => [e.code, e.message])).to.deep.equal(before.map((e) => [e.code, e.message]));
    for (const error of before) expect(error.code).to.equal(-32602);
  });
});
