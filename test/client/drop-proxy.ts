// A TCP proxy in front of a node that a test can cut: every connection through it drops, and new ones are
// refused until `restore`. The node itself keeps running, so the test can change the chain while clients
// behind the proxy are cut off.
import net from 'node:net';

export interface DropProxy {
  /** ws://127.0.0.1:<port> of the proxy */
  readonly wsUrl: string;
  /** connections currently open through the proxy */
  readonly open: number;
  /** connections the proxy accepted so far */
  readonly accepted: number;
  /** drops every connection and refuses new ones */
  cut(): void;
  /** lets connections through again */
  restore(): void;
  close(): Promise<void>;
}

export async function startDropProxy(nodeUrl: string): Promise<DropProxy> {
  const target = new URL(nodeUrl);
  const pairs = new Set<[net.Socket, net.Socket]>();
  let refusing = false;
  let accepted = 0;
  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    accepted++;
    const upstream = net.connect(Number(target.port), target.hostname);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    wsUrl: `ws://127.0.0.1:${port}`,
    get open() {
      return pairs.size;
    },
    get accepted() {
      return accepted;
    },
    cut() {
      refusing = true;
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    restore() {
      refusing = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        refusing = true;
        for (const [client, upstream] of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
