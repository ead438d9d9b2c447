// Which Host headers the node accepts: the loopback names always, and — bound beyond loopback —
// the addresses and name it is reachable by. A hostile page can point a name of its own at the
// node (DNS rebinding) but cannot make the browser send another Host, so accepting the machine's
// own addresses and name keeps that guard.
import { hostname, networkInterfaces } from 'node:os';
import { DEFAULT_ALLOWED_HOSTS } from './browser-guards.js';

const bare = (host: string) => host.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** Whether `host` (a --host value) is a loopback address or name. */
export function isLoopback(host: string): boolean {
  const name = bare(host);
  return name === 'localhost' || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

const isWildcard = (host: string) => ['0.0.0.0', '::', ''].includes(bare(host));
const asHostHeader = (address: string) => (address.includes(':') ? `[${address}]` : address);

/** The Host headers accepted when bound to `host`, with the --allowed-hosts `extra` (`*` for any). */
export function acceptedHosts(host: string, extra: readonly string[]): string[] {
  const accepted = [...DEFAULT_ALLOWED_HOSTS];
  if (!isLoopback(host)) {
    const addresses = isWildcard(host)
      ? Object.values(networkInterfaces())
          .flat()
          .flatMap((nic) => (nic === undefined || nic.internal ? [] : [nic.address]))
      : [bare(host)];
    accepted.push(...addresses.map(asHostHeader), hostname().toLowerCase());
  }
  accepted.push(...extra);
  return [...new Set(accepted)];
}
