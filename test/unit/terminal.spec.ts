// The terminal's request lines: in order, runs folded, floods bounded.
import { expect } from 'chai';
import type { Dispatcher } from '../../src/rpc/dispatch.js';
import { Terminal } from '../../src/terminal/terminal.js';

describe('the terminal: request lines', () => {
  let printed: string;
  let terminal: Terminal;
  let dispatch: Dispatcher;
  beforeEach(() => {
    printed = '';
    // A window no test outlasts: what is printed comes from flush() alone.
    terminal = new Terminal((text) => (printed += text), 60_000);
    dispatch = terminal.dispatcher(async () => null);
  });
  const send = async (...methods: string[]) => {
    for (const method of methods) await dispatch(method, [], { transport: 'http' });
  };

  it('prints a line per request, in the order they came', async () => {
    await send('eth_chainId', 'eth_sendTransaction', 'eth_chainId');
    await terminal.flush();
    expect(printed).to.equal('eth_chainId\neth_sendTransaction\neth_chainId\n');
  });

  it('folds a run of one method into one line with its count', async () => {
    await send(...Array<string>(240).fill('eth_getTransactionReceipt'), 'eth_blockNumber');
    await terminal.flush();
    expect(printed).to.equal('eth_getTransactionReceipt ×240\neth_blockNumber\n');
  });

  it('bounds the lines of a client polling two methods in turn', async () => {
    for (let i = 0; i < 500; i++) await send('eth_blockNumber', 'eth_getTransactionReceipt');
    await terminal.flush();
    const lines = printed.trimEnd().split('\n');
    expect(lines).to.have.length(16);
    expect(lines.slice(0, 14).every((line) => !line.includes('×'))).to.equal(true);
    expect(lines.slice(14)).to.deep.equal(['eth_blockNumber ×493', 'eth_getTransactionReceipt ×493']);
  });

  it('counts requests past 64 lines together, and shows names a client made up as escapes', async () => {
    await send(...Array.from({ length: 70 }, (_, i) => `made_up_\u001b[${i}`));
    await terminal.flush();
    const lines = printed.trimEnd().split('\n');
    expect(lines).to.have.length(65);
    expect(lines[0]).to.equal('made_up_\\u001b[0');
    expect(lines[64]).to.equal('… and 6 more requests');
  });

  it('prints nothing while switched off (anvil_setLoggingEnabled)', async () => {
    terminal.setEnabled(false);
    await send('eth_chainId');
    terminal.setEnabled(true);
    await send('eth_blockNumber');
    await terminal.flush();
    expect(printed).to.equal('eth_blockNumber\n');
  });
});
