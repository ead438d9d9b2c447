// Why the node could not take its port, in one line that says what to do about it.
import { describeProcess, portHolder } from '../system/owners.js';

/** The HTTP server could not listen where it was told to. */
export class ListenRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListenRefused';
  }
}

/** The ListenRefused for a failed listen(), or undefined for a failure it does not know. */
export function listenRefusal(error: unknown, host: string, port: number): ListenRefused | undefined {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE': {
      const pid = portHolder(port);
      const holder = pid === undefined ? 'another process' : `another process (${describeProcess(pid)})`;
      return new ListenRefused(`port ${port} on ${host} is in use by ${holder}; stop it, or choose another --port (0 picks a free one)`);
    }
    case 'EACCES':
      return new ListenRefused(`no permission to listen on port ${port} of ${host}${port < 1024 ? ' (ports below 1024 need privileges)' : ''}; choose another --port`);
    case 'EADDRNOTAVAIL':
      return new ListenRefused(`cannot listen on --host ${host}: no network interface of this machine has that address`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ListenRefused(`cannot listen on --host ${host}: the name does not resolve to an address`);
    default:
      return undefined;
  }
}
