// A request refused for its Host or Origin header is logged once per value, with the flag that
// would let it in: a wallet or a dev server on another port otherwise fails with nothing but a 403.
import type { Logger } from '../log.js';
import { printable } from '../printable.js';
import { hostnameOf } from './browser-guards.js';

/** Values remembered at most: a client sending endless made-up headers cannot grow the node's memory. */
const REMEMBERED = 256;

export function refusalLog(log: Pick<Logger, 'warn'>): (header: 'host' | 'origin', value: string) => void {
  const seen = new Set<string>();
  return (header, value) => {
    const key = `${header} ${value}`;
    if (seen.has(key) || seen.size >= REMEMBERED) return;
    seen.add(key);
    const shown = JSON.stringify(printable(value, 200));
    if (header === 'host') {
      const name = hostnameOf(value);
      log.warn(
        value === ''
          ? 'refused a request without a Host header'
          : `refused a request with Host ${shown}: not an accepted host (a guard against DNS rebinding); --allowed-hosts ${printable(name, 200)} accepts it`,
      );
    } else if (value === 'null') {
      log.warn("refused a request from origin \"null\" (a file:// page or a sandboxed frame): only --cors '*' allows it");
    } else {
      log.warn(
        `refused a request from origin ${shown}: not an allowed origin, so its pages may not use the node's accounts; --cors ${printable(value, 200)} allows it`,
      );
    }
  };
}
