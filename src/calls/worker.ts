// A call worker's thread: the main thread's Executor, on Commons, VMs and flat state snapshots of
// its own; what its snapshots lack is read from the main thread (see workers.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { createBlock, type Block } from '@ethereumjs/block';
import { bytesToHex, createAccountFromRLP } from '@ethereumjs/util';
import { commonFromGenesis } from '../chain/genesis.js';
import { ForkCommons } from '../chain/fork-commons.js';
import { CallFailure, Executor } from '../state/execution.js';
import { StateFacts, StateSnapshot, type StateReader } from '../state/snapshot.js';
import { HEADERS_KEPT, type FromWorker, type ReadAnswer, type ReadQuery, type RunRequest, type ToWorker, type WorkerSetup } from './protocol.js';

/** Snapshots kept: the head's and a few recent ones. */
const SNAPSHOTS_KEPT = 8;

const port = parentPort!;
const setup = workerData as WorkerSetup;
const commons = new ForkCommons(commonFromGenesis(setup.genesis));
const facts = new StateFacts();
/** state root → snapshot, least recently used first */
const snapshots = new Map<string, StateSnapshot>();
const reads = new Map<number, { resolve(value: Uint8Array | null): void; reject(error: Error): void }>();
let nextRead = 0;

const send = (message: FromWorker) => port.postMessage(message);

function read(query: ReadQuery): Promise<Uint8Array | null> {
  const id = nextRead++;
  return new Promise((resolve, reject) => {
    reads.set(id, { resolve, reject });
    send({ ...query, type: 'read', id });
  });
}

/** The main thread's view of the state at `root`, read by message. */
function remoteReader(root: Uint8Array): StateReader {
  return {
    getAccount: async (address) => {
      const rlp = await read({ kind: 'account', root, address: address.bytes });
      return rlp === null ? undefined : createAccountFromRLP(rlp);
    },
    getStorage: async (address, key) => (await read({ kind: 'storage', root, address: address.bytes, key })) ?? new Uint8Array(0),
    getCode: async (address) => (await read({ kind: 'code', root, address: address.bytes })) ?? new Uint8Array(0),
  };
}

function keep(key: string, snapshot: StateSnapshot): StateSnapshot {
  snapshots.delete(key);
  snapshots.set(key, snapshot);
  if (snapshots.size > SNAPSHOTS_KEPT) snapshots.delete(snapshots.keys().next().value as string);
  return snapshot;
}

function snapshotOf(root: Uint8Array): StateSnapshot {
  const key = bytesToHex(root);
  return keep(key, snapshots.get(key) ?? new StateSnapshot(root, async () => remoteReader(root), facts));
}

const executor = new Executor({
  commonAt: (header) => commons.at(header),
  // BLOCKHASH asks the chain for a block and reads its hash: the hash is all it needs.
  blockByNumber: async (number) => {
    const hash = await read({ kind: 'blockHash', number });
    return hash === null ? undefined : ({ hash: () => hash } as Block);
  },
  state: {
    snapshot: snapshotOf,
    scratch: () => Promise.reject(new Error('calls before Byzantium run on the main thread')),
  },
});

/** Blocks calls ran on, by hash, least recently used first: the main thread sends a header once (see workers.ts). */
const blocks = new Map<string, Block>();

function blockOf(message: RunRequest): Block {
  let block = blocks.get(message.hash);
  if (block === undefined) {
    const header = message.header!;
    const common = commons.at({ number: BigInt(header.number!), timestamp: BigInt(header.timestamp!) });
    block = createBlock({ header }, { common, setHardfork: false, skipConsensusFormatValidation: true });
  }
  blocks.delete(message.hash);
  blocks.set(message.hash, block);
  if (blocks.size > HEADERS_KEPT) blocks.delete(blocks.keys().next().value as string);
  return block;
}

async function run(message: RunRequest): Promise<void> {
  const block = blockOf(message);
  try {
    const value = message.kind === 'call' ? await executor.call(message.request, block) : await executor.estimateGas(message.request, block);
    send({ type: 'done', id: message.id, value });
  } catch (error) {
    if (error instanceof CallFailure) send({ type: 'done', id: message.id, fault: error.fault });
    else send({ type: 'done', id: message.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}

function answered(message: ReadAnswer): void {
  const pending = reads.get(message.id);
  if (pending === undefined) return;
  reads.delete(message.id);
  if (message.error !== undefined) pending.reject(new Error(message.error));
  else pending.resolve(message.value ?? null);
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'run') void run(message);
  else if (message.type === 'read-answer') answered(message);
  else if (message.type === 'reset') snapshots.clear();
  else {
    const parent = snapshotOf(message.parentRoot);
    const changes = new Map(message.changes.map(([key, rlp]) => [key, rlp === null ? null : createAccountFromRLP(rlp)]));
    keep(bytesToHex(message.root), parent.child(message.root, async () => remoteReader(message.root), changes));
  }
});

send({ type: 'ready' });
