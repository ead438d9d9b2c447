// Forking a public chain: its headers name the fork no further than "Prague or later" (requestsHash),
// so the fork at the fork block comes from the chain's schedule — Mainnet past BPO2 prices blobs
// with BPO2's target and update fraction, as the remote does.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { devGenesis } from '../../src/chain/dev-genesis.js';
import { DEFAULTS } from '../../src/config.js';
import { startFork, type ForkingNode } from '../helpers/fork-remote.js';
import { DEV_ADDRESSES, startTestNode, type TestNode } from '../helpers/node.js';

/** Mainnet's BPO2 activation, and a block well after it. */
const BPO2_TIME = 1767747671n;
const AFTER_BPO2 = BPO2_TIME + 1_000_000n;
/** Blob gas in excess of the target: enough that the update fraction changes the blob base fee. */
const EXCESS_BLOB_GAS = 0x8000000n;

/** EIP-4844's fake_exponential: the blob base fee for an excess blob gas and update fraction. */
function fakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
  let output = 0n;
  let accum = factor * denominator;
  for (let i = 1n; accum > 0n; i++) {
    output += accum;
    accum = (accum * numerator) / (denominator * i);
  }
  return output / denominator;
}

/** Mainnet's BPO2 blob base fee update fraction (EIP-7892's schedule). */
const BPO2_UPDATE_FRACTION = 11_684_671n;

/** A remote answering Mainnet's chain id, at BPO2 from its genesis, which carries `excessBlobGas`. */
async function mainnetLikeRemote(dir: string, hardfork: string, timestamp: bigint): Promise<TestNode> {
  const genesis = {
    ...devGenesis({ chainId: 1n, hardfork, accounts: DEV_ADDRESSES.map((a) => a.toLowerCase()), balance: DEFAULTS.balance, gasLimit: DEFAULTS.gasLimit, timestamp }),
    excessBlobGas: `0x${EXCESS_BLOB_GAS.toString(16)}`,
    blobGasUsed: '0x0',
  };
  const file = join(dir, 'genesis.json');
  await writeFile(file, JSON.stringify(genesis));
  return startTestNode({ genesis: file, genesisFlagsGiven: true, dataDir: undefined });
}

describe('forking: a public chain runs its schedule’s fork at the fork block', () => {
  let dir: string;
  let remote: TestNode | undefined;
  let fork: ForkingNode | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evm-node-fork-schedule-'));
  });
  afterEach(async () => {
    await fork?.destroy();
    await remote?.destroy();
    fork = remote = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it('a Mainnet block past BPO2 is forked at BPO2: the same blob base fee as the remote, and anvil_nodeInfo says bpo2', async () => {
    remote = await mainnetLikeRemote(dir, 'bpo2', AFTER_BPO2);
    fork = await startFork(remote.url, { blockNumber: 0n });
    const info = await fork.call('anvil_nodeInfo', []);
    expect(info.hardFork).to.equal('bpo2');
    // The fork block's excess priced at BPO2's update fraction (Osaka's would give ~4e11 wei).
    const expected = fakeExponential(1n, EXCESS_BLOB_GAS, BPO2_UPDATE_FRACTION);
    expect(BigInt(await fork.call('eth_blobBaseFee', []))).to.equal(expected);
    expect(await fork.call('eth_blobBaseFee', [])).to.equal(await remote.call('eth_blobBaseFee', []));
    const history = (node: TestNode) => node.call('eth_feeHistory', ['0x1', '0x0', []]);
    expect((await history(fork)).baseFeePerBlobGas).to.deep.equal((await history(remote)).baseFeePerBlobGas);
  });

  it('a Mainnet block of the Prague era is forked at Prague, not the newest fork the node knows', async () => {
    remote = await mainnetLikeRemote(dir, 'prague', 1750000000n);
    fork = await startFork(remote.url, { blockNumber: 0n });
    expect((await fork.call('anvil_nodeInfo', [])).hardFork).to.equal('prague');
  });

  it('a local chain answering Mainnet’s id whose blocks the schedule would place before Prague keeps the fork its headers name', async () => {
    // Its genesis has a requestsHash, though Mainnet's schedule has Cancun at that time.
    remote = await mainnetLikeRemote(dir, 'osaka', 1735689600n);
    fork = await startFork(remote.url, { blockNumber: 0n });
    expect((await fork.call('anvil_nodeInfo', [])).hardFork).to.equal('osaka');
  });
});
