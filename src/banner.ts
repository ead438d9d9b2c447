// What `start` prints once it serves: where to reach the node, what chain it serves, where that
// chain is kept, and the dev accounts with their keys.
import { bytesToHex } from '@ethereumjs/util';
import { baseFeeAfter } from './fees/fees.js';
import type { RunningNode } from './node.js';
import { isLoopback } from './transport/hosts.js';

const GWEI = 10n ** 9n;

/** Wei as gwei, with up to 9 decimals: `1 gwei`, `0.875 gwei`. */
export function formatGwei(wei: bigint): string {
  const whole = wei / GWEI;
  const fraction = (wei % GWEI).toString().padStart(9, '0').replace(/0+$/, '');
  return `${whole}${fraction === '' ? '' : `.${fraction}`} gwei`;
}

function miningMode({ mining, blockTime }: RunningNode['config']): string {
  if (!mining) return 'only on evm_mine (--no-mining)';
  return blockTime === 0 ? 'each transaction as it arrives' : `a block every ${blockTime} s`;
}

function chainData(node: RunningNode): string {
  const { dataDir } = node.config;
  if (dataDir === undefined) return 'in memory: gone when the node stops (--data-dir DIR keeps it)';
  return `kept in ${dataDir}, head at block ${node.services.chain.head().header.number}${node.config.fresh ? ' (wiped at start: --fresh)' : ''}`;
}

/** --json: the banner's facts as one JSON object on one line. */
export function jsonBanner(node: RunningNode): string {
  const { chain, accounts } = node.services;
  const head = chain.head().header;
  const next = chain.nextCommon();
  const fork = chain.fork?.info;
  return (
    JSON.stringify({
      time: new Date().toISOString(),
      event: 'listening',
      url: node.url,
      webSocket: node.url.replace(/^http:/, 'ws:'),
      chainId: Number(chain.commons.base.chainId()),
      hardfork: next.hardfork(),
      gasLimit: Number(head.gasLimit),
      baseFee: baseFeeAfter(head, next).toString(),
      mining: miningMode(node.config),
      chainData: chainData(node),
      head: Number(head.number),
      ...(fork !== undefined && { fork: { url: fork.url ?? null, block: Number(fork.number), hash: bytesToHex(fork.hash), remoteChainId: Number(fork.remoteChainId) } }),
      ...(node.devChain && { mnemonic: node.config.mnemonic, accounts: accounts.map((a) => ({ address: a.address, privateKey: bytesToHex(a.privateKey) })) }),
    }) + '\n'
  );
}

export function banner(node: RunningNode): string {
  const { chain } = node.services;
  const head = chain.head().header;
  const next = chain.nextCommon();
  const ws = node.url.replace(/^http:/, 'ws:');
  const fields: Array<[string, string]> = [
    ['WebSocket', ws],
    ['Playground', `${node.url}/`],
    ['Chain', `id ${chain.commons.base.chainId()}, hardfork ${next.hardfork()}, gas limit ${head.gasLimit}, base fee ${formatGwei(baseFeeAfter(head, next))}`],
    ['Mining', miningMode(node.config)],
    ['Chain data', chainData(node)],
  ];
  const fork = chain.fork?.info;
  if (fork !== undefined) {
    fields.push(
      ['Fork', `${fork.offline ? 'offline, from the fork cache' : fork.url} at block ${fork.number} (${bytesToHex(fork.hash)}), remote chain id ${fork.remoteChainId}`],
      ['Fork cache', fork.cache === undefined ? 'in memory only (--no-fork-cache, or the cache dir was taken)' : `in ${fork.cache}`],
      [
        'State roots',
        chain.fork?.forkState.values === undefined
          ? 'real: read from eth_getProof, blocks on the fork commit to them and their proofs verify'
          : "NOT REAL: the remote serves no eth_getProof, so state is read as plain values; blocks on the fork carry the node's own roots and eth_getProof is refused",
      ],
    );
  }
  if (!isLoopback(node.config.host)) {
    const hosts = node.acceptedHosts.includes('*') ? 'any' : node.acceptedHosts.join(', ');
    fields.push(['Host headers', `${hosts} (reachable beyond this machine; --allowed-hosts adds names)`]);
  }
  const lines = ['', `evm-node listening on ${node.url}`, '', ...fields.map(([name, value]) => `  ${name.padEnd(12)} ${value}`)];
  const { accounts } = node.services;
  if (!isLoopback(node.config.host) && accounts.length > 0) {
    lines.push('', `WARNING: the ${accounts.length} dev accounts are unlocked: anyone who can reach port ${node.port} on ${node.config.host} can send transactions and sign with them.`);
  }
  if (node.devChain && accounts.length > 0) {
    lines.push(
      '',
      `Mnemonic:        ${node.config.mnemonic}`,
      `Derivation path: m/44'/60'/0'/0/0 … m/44'/60'/0'/0/${accounts.length - 1}`,
      '',
      'Dev accounts (publicly known keys — never use them on a real network):',
      ...accounts.map((account, i) => `(${i}) ${account.address}  ${bytesToHex(account.privateKey)}`),
    );
  }
  return lines.join('\n') + '\n\n';
}
