// The specs of anvil_dumpState / anvil_loadState, written once and run under both names by
// test/rpc/{anvil,hardhat}/{dumpState,loadState}.spec.ts: anvil's format out and in, round trips,
// and refusals that leave the chain as it was.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { projectRoot } from '../../shared/contract/root.js';
import { callAs, freshAddress, freshNode, methodOf, type Dialect } from './dev-calls.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from './node.js';
import { sectionRange, withDataDir } from './data-dir-keys.js';
import { expectRpcError } from './transactions.js';

/** anvil's dump as JSON (its accounts keyed by lowercase address). */
export interface AnvilDump {
  block: { number: string; timestamp: string };
  accounts: Record<string, { nonce: number; balance: string; code: string; storage: Record<string, string> }>;
  best_block_number: number;
  blocks: Array<{ header: { number: string; stateRoot: string }; transactions: Array<{ transaction: { hash: string; chainId?: string }; impersonated_sender: string | null }> }>;
  transactions: unknown[];
}

export const decodeDump = (hex: string): AnvilDump => JSON.parse(gunzipSync(Buffer.from(hex.slice(2), 'hex')).toString('utf8')) as AnvilDump;

/** A dump made by anvil 1.7.1 (test/fixtures/anvil/README.md says how). */
export const anvilFixture = (file: string): string => readFileSync(join(projectRoot(), 'test', 'fixtures', 'anvil', file), 'utf8');

/** `json` as the hex loadState takes, not gzipped (as --dump-state writes it). */
export const plainHex = (json: string): string => `0x${Buffer.from(json).toString('hex')}`;

const CONTRACT = freshAddress(0x5151);
/** Runtime code that returns slot 1. */
const RETURNS_SLOT_1 = '0x60015460005260206000f3';
const SLOT_1 = `0x${'00'.repeat(31)}01`;
const WORD_42 = `0x${'00'.repeat(31)}2a`;

/** A transfer, a contract with a slot, a nonce moved: what the round trips carry. */
async function makeHistory(node: TestNode): Promise<string> {
  const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[0], to: DEV_ADDRESSES[1], value: '0xde0b6b3a7640000' }]);
  await node.call('anvil_setCode', [CONTRACT, RETURNS_SLOT_1]);
  await node.call('anvil_setStorageAt', [CONTRACT, '0x1', '0x2a']);
  await node.call('anvil_setNonce', [DEV_ADDRESSES[2], '0x5']);
  return hash;
}

/** What a client reads of an account at latest. */
async function accountAt(node: TestNode, address: string) {
  const [balance, nonce, code, slot] = await Promise.all([
    node.call('eth_getBalance', [address, 'latest']),
    node.call('eth_getTransactionCount', [address, 'latest']),
    node.call('eth_getCode', [address, 'latest']),
    node.call('eth_getStorageAt', [address, '0x1', 'latest']),
  ]);
  return { balance, nonce, code, slot };
}

export function describeDumpState(dialect: Dialect): void {
  const method = methodOf(dialect, 'dumpState');
  describe(method, () => {
    const it_ = freshNode();

    it("answers the head's state as anvil does: gzipped JSON in anvil's format, in hex", async () => {
      const { node } = it_;
      const sent = await makeHistory(node);
      const dump = decodeDump((await callAs(node, method, [])) as string);
      expect(Object.keys(dump)).to.deep.equal(['block', 'accounts', 'best_block_number', 'blocks', 'transactions', 'historical_states']);
      expect(dump.best_block_number).to.equal(1);
      expect(dump.block.number).to.equal('0x1');
      expect(dump.accounts[CONTRACT]).to.deep.equal({ nonce: 0, balance: '0x0', code: RETURNS_SLOT_1, storage: { [SLOT_1]: WORD_42 } });
      expect(dump.accounts[DEV_ADDRESSES[2]]).to.include({ nonce: 5, code: '0x' });
      expect(dump.accounts[DEV_ADDRESSES[1]]!.balance).to.equal(await node.call('eth_getBalance', [DEV_ADDRESSES[1], 'latest']));
      const head = await node.call('eth_getBlockByNumber', ['latest', false]);
      expect(dump.blocks.map((b) => b.header)).to.deep.equal([{ ...pick(head as unknown as Record<string, unknown>, Object.keys(dump.blocks[0]!.header)) }]);
      expect(dump.blocks[0]!.transactions.map((t) => [t.transaction.hash, t.transaction.chainId, t.impersonated_sender])).to.deep.equal([[sent, '0x7a69', null]]);
    });

    it('lists every account of the state: the dev accounts, the system contracts and the ones the chain made', async () => {
      const { node } = it_;
      await makeHistory(node);
      const dump = decodeDump((await callAs(node, method, [])) as string);
      for (const address of [...DEV_ADDRESSES, CONTRACT, '0x000f3df6d732807ef1319fb7b8bb8522d0beac02']) expect(dump.accounts, address).to.have.property(address);
      for (const [address, account] of Object.entries(dump.accounts)) {
        expect(account.balance, address).to.equal(await node.call('eth_getBalance', [address, 'latest']));
        expect(account.code, address).to.equal(await node.call('eth_getCode', [address, 'latest']));
      }
    });

    it("marks an impersonated account's transaction with its sender, as anvil does", async () => {
      const { node } = it_;
      const stranger = freshAddress(0x7e57);
      await node.call('anvil_setBalance', [stranger, '0xde0b6b3a7640000']);
      await node.call('anvil_impersonateAccount', [stranger]);
      await node.call('eth_sendTransaction', [{ from: stranger, to: DEV_ADDRESSES[0], value: '0x1' }]);
      const dump = decodeDump((await callAs(node, method, [])) as string);
      expect(dump.blocks[0]!.transactions[0]!.impersonated_sender).to.equal(stranger);
    });

    it('round trip: a fresh node that loads the dump reads every account as the first', async () => {
      const { node } = it_;
      await makeHistory(node);
      const blob = (await callAs(node, method, [])) as string;
      const other = await startTestNode();
      try {
        expect(await callAs(other, methodOf(dialect, 'loadState'), [blob])).to.equal(true);
        for (const address of [...DEV_ADDRESSES, CONTRACT]) expect(await accountAt(other, address), address).to.deep.equal(await accountAt(node, address));
        expect(decodeDump((await callAs(other, method, [])) as string).accounts).to.deep.equal(decodeDump(blob).accounts);
      } finally {
        await other.destroy();
      }
    });

    if (dialect === 'anvil') {
      it('refuses, with -32000 naming why, a state holding keys written before preimages were kept', async () => {
        const { node } = it_;
        await node.stop();
        // As a data dir of an earlier version: its state without the preimages of its keys.
        await withDataDir(node.dataDir, (db) => db.clear(sectionRange('h')));
        const restarted = await startTestNode({}, node.dataDir);
        try {
          await expectRpcError(callAs(restarted, method, []), -32000, /cannot dump the state: the state holds an account whose key the node never recorded/);
          // What the node writes from now on is recorded: an edit's account is found again.
          await restarted.call('anvil_setBalance', [CONTRACT, '0x1']);
          expect(await restarted.call('eth_getBalance', [CONTRACT, 'latest'])).to.equal('0x1');
        } finally {
          await restarted.stop();
        }
      });
    }
  });
}

export function describeLoadState(dialect: Dialect): void {
  const method = methodOf(dialect, 'loadState');
  const dump = methodOf(dialect, 'dumpState');
  describe(method, () => {
    const it_ = freshNode();

    it("loads anvil's own dumpState answer (gzipped), and answers true", async () => {
      const { node } = it_;
      expect(await callAs(node, method, [anvilFixture('dump-state.hex').trim()])).to.equal(true);
      expect(await accountAt(node, '0x1111111111111111111111111111111111111111')).to.deep.equal({ balance: '0x0', nonce: '0x0', code: RETURNS_SLOT_1, slot: WORD_42 });
      expect(await node.call('eth_getTransactionCount', [DEV_ADDRESSES[2], 'latest'])).to.equal('0x5');
      const fixture = JSON.parse(anvilFixture('state.json')) as AnvilDump;
      expect(await node.call('eth_getBalance', [DEV_ADDRESSES[1], 'latest'])).to.equal(fixture.accounts[DEV_ADDRESSES[1]]!.balance);
    });

    it("loads anvil's --dump-state file (plain JSON) too", async () => {
      const { node } = it_;
      expect(await callAs(node, method, [plainHex(anvilFixture('state.json'))])).to.equal(true);
      expect(await node.call('eth_getStorageAt', ['0x1111111111111111111111111111111111111111', '0x1', 'latest'])).to.equal(WORD_42);
    });

    it("merges: accounts the dump does not list, and slots it does not name, are kept; the pool follows the loaded nonces", async () => {
      const { node } = it_;
      const kept = freshAddress(0xbeef);
      await node.call('anvil_setBalance', [kept, '0x7']);
      await node.call('anvil_setStorageAt', ['0x1111111111111111111111111111111111111111', '0x2', '0x9']);
      await callAs(node, method, [anvilFixture('dump-state.hex').trim()]);
      expect(await node.call('eth_getBalance', [kept, 'latest'])).to.equal('0x7');
      expect(await node.call('eth_getStorageAt', ['0x1111111111111111111111111111111111111111', '0x2', 'latest'])).to.equal(`0x${'00'.repeat(31)}09`);
      const hash = await node.call('eth_sendTransaction', [{ from: DEV_ADDRESSES[2], to: DEV_ADDRESSES[0], value: '0x1' }]);
      expect((await node.call('eth_getTransactionByHash', [hash]))!.nonce).to.equal('0x5');
    });

    it('lands in one edit that survives a restart', async () => {
      const { node } = it_;
      await callAs(node, method, [anvilFixture('dump-state.hex').trim()]);
      await node.stop();
      const restarted = await startTestNode({}, node.dataDir);
      try {
        expect(await restarted.call('eth_getCode', ['0x1111111111111111111111111111111111111111', 'latest'])).to.equal(RETURNS_SLOT_1);
      } finally {
        await restarted.stop();
      }
    });

    const refusals: Array<[string, string, RegExp]> = [
      ['not JSON', plainHex('{"accounts": {'), /the state dump is not JSON/],
      ['JSON without accounts', plainHex('{"foo":1}'), /not a state dump: anvil's is a JSON object with "accounts"/],
      ['an account that is not an address', plainHex('{"accounts":{"0x12":{"nonce":0,"balance":"0x1"}}}'), /accounts\.0x12: not an address/],
      ['a balance that is not a quantity', plainHex(`{"accounts":{"${DEV_ADDRESSES[0]}":{"nonce":0,"balance":"lots"}}}`), /balance: "lots" is not a quantity/],
      ['gzip that does not unzip', '0x1f8b0800', /gzip but does not unzip/],
      ["another chain's dump (its transactions signed for chain 1)", plainHex(anvilFixture('chain-1-state.json')), /the dump is of chain 1 .*this node's chain is 31337; start a node with --chain-id 1/],
    ];
    for (const [what, blob, reason] of refusals) {
      it(`refuses ${what} with -32602 naming why, and the chain is untouched`, async () => {
        const { node } = it_;
        await node.call('anvil_setBalance', [DEV_ADDRESSES[0], '0x3']);
        const before = await callAs(node, dump, []);
        const error = await expectRpcError(callAs(node, method, [blob]), -32602, reason);
        expect(error.message).to.match(/; nothing was loaded$/);
        expect(await callAs(node, dump, [])).to.equal(before);
        expect(await node.call('eth_getBalance', [DEV_ADDRESSES[0], 'latest'])).to.equal('0x3');
      });
    }
  });
}

function pick(object: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, object[key]]));
}
