// The scaling run (`npm run bench -- --grow N`): the same reads on a 1,000-block chain and on one
// grown to N blocks, 2.5 transactions a block (ETH transfers to new accounts and ERC-20 transfers
// to new holders, so the state grows with the chain). What should not follow the chain's length:
// a receipt picked at random among all, an eth_call of the token's balanceOf (peerbench's W4), a
// proof of the balances of the token's first two holders (peerbench's W7: the same proof again and
// again, as a wallet polls it), a proof of two balances of holders picked at random (so that no
// cached answer serves it),
// eth_getLogs of one emitter over the whole range (a token whose 21 logs all sit in the first
// 1,000 blocks), and the node's memory. Each round of reads starts once the node has settled (its
// background work after the burst of blocks, LevelDB's compactions, done; the log says how long that took).
import { bigIntToUnpaddedBytes, bytesToHex, createAddressFromString, generateAddress, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import type { DevAccount } from '../../src/chain/dev-accounts.js';
import { closedLoop, type RpcClient } from './client.js';
import { residentMemory, settle, withCpu } from './node-process.js';
import type { Signed, Signer } from './signer.js';
import { fmt, printTable } from './table.js';
import { encodeBalanceOf, encodeConstructor, encodeTransfer } from './token.js';

export interface ScalingOptions {
  client: RpcClient;
  /** the node's process, when the benchmark started it: CPU and memory figures need it */
  pid?: number;
  senders: DevAccount[];
  signer: Signer;
  /** the length to grow the chain to */
  blocks: number;
  concurrency: number;
  seconds: number;
  /** how long the node idles after the reads before its memory is read again (V8 gives memory back once idle) */
  idleSeconds: number;
  log(message: string): void;
}

const BASE_BLOCKS = 1000;
/** The probe token's transfers: one every this many blocks of the first 1,000. */
const PROBE_EVERY = 50;

interface Figures {
  blocks: number;
  transactions: number;
  receipt: { perSecond: number; cpuUs?: number };
  call: { perSecond: number; cpuUs?: number };
  sameProof: { perSecond: number; cpuUs?: number };
  proof: { perSecond: number; cpuUs?: number };
  logs: { ms: number; cpuUs?: number; count: number };
  memory?: { rss: number; anon: number; file: number };
  idleMemory?: { rss: number; anon: number; file: number };
}

/** The storage key of `holder`'s balance in BenchToken (its `balanceOf` mapping is slot 0). */
const balanceSlot = (holder: string) => bytesToHex(keccak256(new Uint8Array([...setLengthLeft(hexToBytes(holder as `0x${string}`), 32), ...new Uint8Array(32)])));

const address = (n: number) => `0x${(0x5ca1e0000000n + BigInt(n)).toString(16).padStart(40, '0')}`;

export async function measureScaling(o: ScalingOptions): Promise<void> {
  const { client, signer, senders, log } = o;
  if (o.blocks <= BASE_BLOCKS) throw new Error(`--grow takes a chain length above ${BASE_BLOCKS}`);
  await client.call('evm_setIntervalMining', [0]);
  await client.call('evm_setAutomine', [false]);
  const mined: string[] = [];
  const mine = async (txs: Signed[]) => {
    await Promise.all(txs.map((tx) => client.call('eth_sendRawTransaction', [tx.raw])));
    await client.call('evm_mine');
    for (const tx of txs) mined.push(tx.hash);
  };
  const [owner] = senders;
  const tokenAt = () => bytesToHex(generateAddress(createAddressFromString(owner.address).bytes, bigIntToUnpaddedBytes(signer.nextNonce(owner))));
  const token = tokenAt();
  const deployToken = signer.sign(owner, { data: encodeConstructor(10n ** 30n), gasLimit: 1_000_000n });
  const probe = tokenAt();
  const deployProbe = signer.sign(owner, { data: encodeConstructor(10n ** 30n), gasLimit: 1_000_000n });
  await mine([deployToken, deployProbe]);
  await mine(senders.slice(1).map((s) => signer.sign(owner, { to: token, data: encodeTransfer(s.address, 10n ** 24n), gasLimit: 100_000n })));

  let sent = 0;
  const blockTxs = (height: number): Signed[] => {
    const txs: Signed[] = [];
    for (let k = 0; k < (height % 2 === 0 ? 2 : 3); k++) {
      const n = sent++;
      const sender = senders[n % senders.length];
      txs.push(
        n % 2 === 0
          ? signer.sign(sender, { to: address(n), value: 1n })
          : signer.sign(sender, { to: token, data: encodeTransfer(address(n), 1n), gasLimit: 100_000n }),
      );
    }
    if (height < BASE_BLOCKS && height % PROBE_EVERY === PROBE_EVERY / 2) txs.push(signer.sign(owner, { to: probe, data: encodeTransfer(address(height), 1n), gasLimit: 100_000n }));
    return txs;
  };
  const grow = async (target: number) => {
    const started = performance.now();
    let height = Number(BigInt(await client.call<string>('eth_blockNumber')));
    const from = height;
    while (height < target) {
      await mine(blockTxs(height + 1));
      height++;
      if (height % 2000 === 0) log(`  … block ${height}, ${mined.length} transactions`);
    }
    const receipt = await client.call<{ status: string } | null>('eth_getTransactionReceipt', [mined[mined.length - 1]]);
    if (receipt?.status !== '0x1') throw new Error(`the last transaction of the growth failed: ${JSON.stringify(receipt)}`);
    log(`grew the chain from ${from} to ${height} blocks in ${fmt((performance.now() - started) / 1000, 1)} s (${mined.length} transactions)`);
  };

  /** Two token holders picked at random: the odd-numbered recipients so far received tokens. */
  const proofKeys = () => [0, 1].map(() => balanceSlot(address(2 * Math.floor((Math.random() * sent) / 2) + 1)));
  const measure = async (): Promise<Figures> => {
    const blocks = Number(BigInt(await client.call<string>('eth_blockNumber')));
    // What is measured is the chain's length, not a node still digesting the burst that grew it.
    const settled = await settle(o.pid);
    if (settled !== undefined) log(`the node settled ${fmt(settled.seconds, 1)} s after the growth (${fmt(settled.cpu, 2)} CPU-s of background work meanwhile)`);
    const load = async (request: () => Promise<unknown>) => {
      await closedLoop(o.concurrency, 1, 200, request, 0);
      const { result, cpuUs } = await withCpu(o.pid, (r: { requests: number }) => r.requests, () => closedLoop(o.concurrency, o.seconds, 1_000_000, request, 0));
      return { perSecond: result.perSecond, cpuUs };
    };
    const pick = () => mined[Math.floor(Math.random() * mined.length)];
    const receipt = await load(() => client.call('eth_getTransactionReceipt', [pick()]));
    const call = await load(() => client.call('eth_call', [{ from: owner.address, to: token, data: encodeBalanceOf(owner.address) }, 'latest']));
    const firstHolders = [owner.address, senders[1].address].map(balanceSlot);
    const sameProof = await load(() => client.call('eth_getProof', [token, firstHolders, 'latest']));
    const proof = await load(() => client.call('eth_getProof', [token, proofKeys(), 'latest']));
    let count = 0;
    const query = async () => (count = (await client.call<unknown[]>('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: probe }])).length);
    await query();
    const { result, cpuUs } = await withCpu(o.pid, (r: { requests: number }) => r.requests, () => closedLoop(1, o.seconds, 200, query, 0));
    const memory = await residentMemory(o.pid);
    await new Promise((resolve) => setTimeout(resolve, o.idleSeconds * 1000));
    const idleMemory = o.idleSeconds > 0 ? await residentMemory(o.pid) : undefined;
    return { blocks, transactions: mined.length, receipt, call, sameProof, proof, logs: { ms: result.p50, cpuUs, count }, memory, idleMemory };
  };

  log(`growing to ${BASE_BLOCKS} blocks…`);
  await grow(BASE_BLOCKS);
  const base = await measure();
  log(`growing to ${o.blocks} blocks…`);
  await grow(o.blocks);
  const grown = await measure();
  await client.call('evm_setAutomine', [true]);

  const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? '' : `${fmt(b / a, 2)}×`);
  const cpu = (us: number | undefined) => (us === undefined ? '' : `${fmt(us)} µs`);
  printTable(
    ['measure', `${fmt(base.blocks)} blocks`, `${fmt(grown.blocks)} blocks`, 'grown ÷ base'],
    [
      ['transactions', fmt(base.transactions), fmt(grown.transactions), ''],
      [`eth_getTransactionReceipt, random among all, c=${o.concurrency}`, `${fmt(base.receipt.perSecond)} req/s`, `${fmt(grown.receipt.perSecond)} req/s`, ratio(base.receipt.perSecond, grown.receipt.perSecond)],
      ['  node CPU per receipt', cpu(base.receipt.cpuUs), cpu(grown.receipt.cpuUs), ratio(base.receipt.cpuUs, grown.receipt.cpuUs)],
      [`eth_call ERC-20 balanceOf (peerbench W4), c=${o.concurrency}`, `${fmt(base.call.perSecond)} req/s`, `${fmt(grown.call.perSecond)} req/s`, ratio(base.call.perSecond, grown.call.perSecond)],
      ['  node CPU per call', cpu(base.call.cpuUs), cpu(grown.call.cpuUs), ratio(base.call.cpuUs, grown.call.cpuUs)],
      [`eth_getProof, ERC-20, its first 2 holders (peerbench W7), c=${o.concurrency}`, `${fmt(base.sameProof.perSecond)} req/s`, `${fmt(grown.sameProof.perSecond)} req/s`, ratio(base.sameProof.perSecond, grown.sameProof.perSecond)],
      ['  node CPU per proof', cpu(base.sameProof.cpuUs), cpu(grown.sameProof.cpuUs), ratio(base.sameProof.cpuUs, grown.sameProof.cpuUs)],
      [`eth_getProof, ERC-20, 2 random holders, c=${o.concurrency}`, `${fmt(base.proof.perSecond)} req/s`, `${fmt(grown.proof.perSecond)} req/s`, ratio(base.proof.perSecond, grown.proof.perSecond)],
      ['  node CPU per proof', cpu(base.proof.cpuUs), cpu(grown.proof.cpuUs), ratio(base.proof.cpuUs, grown.proof.cpuUs)],
      [`eth_getLogs, one emitter, block 0 to latest (${base.logs.count} logs), p50`, `${fmt(base.logs.ms, 2)} ms`, `${fmt(grown.logs.ms, 2)} ms`, ratio(base.logs.ms, grown.logs.ms)],
      ['  node CPU per query', cpu(base.logs.cpuUs), cpu(grown.logs.cpuUs), ratio(base.logs.cpuUs, grown.logs.cpuUs)],
      ...(['rss', 'anon', 'file'] as const).map((part) => [
        { rss: 'node resident memory (VmRSS), right after the reads', anon: '  of it allocated (RssAnon)', file: '  of it mapped files: binary, LevelDB tables (RssFile)' }[part],
        base.memory === undefined ? 'n/a' : `${fmt(base.memory[part])} MiB`,
        grown.memory === undefined ? 'n/a' : `${fmt(grown.memory[part])} MiB`,
        ratio(base.memory?.[part], grown.memory?.[part]),
      ]),
      [
        `node resident memory after ${o.idleSeconds} s idle`,
        base.idleMemory === undefined ? 'n/a' : `${fmt(base.idleMemory.rss)} MiB`,
        grown.idleMemory === undefined ? 'n/a' : `${fmt(grown.idleMemory.rss)} MiB`,
        ratio(base.idleMemory?.rss, grown.idleMemory?.rss),
      ],
    ],
    new Set([1, 2, 3]),
  );
}
