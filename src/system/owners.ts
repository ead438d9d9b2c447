// Which process holds a port or a file lock, for the one-line message of a start that cannot go
// on. Linux only, read from /proc, best effort: anything unreadable (another user's process, another
// system) just leaves the process unnamed.
import { readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/** `pid 4242: anvil --port 8545`, its command line cut to a readable length, or `pid 4242` alone. */
export function describeProcess(pid: number): string {
  if (pid === process.pid) return `pid ${pid}, this process`;
  const cmdline = read(`/proc/${pid}/cmdline`)?.split('\0').filter((arg) => arg !== '').join(' ');
  const command = cmdline !== undefined && cmdline !== '' ? cmdline : read(`/proc/${pid}/comm`)?.trim();
  if (command === undefined || command === '') return `pid ${pid}`;
  return `pid ${pid}: ${command.length > 80 ? `${command.slice(0, 79)}…` : command}`;
}

/** Socket inodes listening on TCP `port` (any address), from /proc/net/tcp and tcp6. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (read(table) ?? '').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl, local_address (ADDR:PORT), rem_address, st (0A = LISTEN), …, inode (the tenth)
      if (fields.length > 9 && fields[1]!.endsWith(`:${hexPort}`) && fields[3] === '0A') inodes.add(fields[9]!);
    }
  }
  return inodes;
}

/** The process listening on TCP `port`, if /proc tells. */
export function portHolder(port: number): number | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  const wanted = new Set([...inodes].map((inode) => `socket:[${inode}]`));
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (wanted.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) return Number(pid);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

/** The process holding a POSIX lock on `file` (LevelDB's LOCK), from /proc/locks. */
export function lockHolder(file: string): number | undefined {
  let inode: number;
  try {
    inode = statSync(file).ino;
  } catch {
    return undefined;
  }
  for (const line of (read('/proc/locks') ?? '').split('\n')) {
    // "1: POSIX  ADVISORY  WRITE 15165 fe:00:2146386 0 EOF" (a "->" marks a waiter, which holds nothing)
    const match = /^\d+:\s+POSIX\s+\S+\s+\S+\s+(\d+)\s+[0-9a-f]+:[0-9a-f]+:(\d+)\s/.exec(line);
    if (match !== null && Number(match[2]) === inode) return Number(match[1]);
  }
  return undefined;
}
