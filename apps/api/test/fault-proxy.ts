import net from 'node:net';

/**
 * How the proxy treats connections: `pass` forwards both ways; `refuse` stops listening (new
 * connections are refused by the kernel) and closes the open ones; `black-hole` accepts new
 * connections and holds them without forwarding or answering, and stops forwarding on the open
 * ones (a server or network that drops packets). Connections held by a black hole are closed when
 * the mode goes back to `pass`, as a firewall that lost their state would.
 */
export type FaultMode = 'pass' | 'refuse' | 'black-hole';

export interface FaultProxy {
  readonly port: number;
  readonly mode: FaultMode;
  setMode(mode: FaultMode): Promise<void>;
  /** What clients sent that was held by the black hole (not forwarded), as text. */
  held(): string;
  /** Connections accepted while black-holed. */
  readonly heldConnections: number;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream?: net.Socket;
  held: boolean;
}

/** A TCP proxy on 127.0.0.1 (a port of its own) in front of `target`, to cut a store off in tests. */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: FaultMode = 'pass';
  const pairs = new Set<Pair>();
  let held = '';
  let heldConnections = 0;
  const hold = (data: Buffer) => {
    held += data.toString('latin1');
  };
  const drop = (pair: Pair) => {
    pairs.delete(pair);
    pair.client.destroy();
    pair.upstream?.destroy();
  };
  const server = net.createServer((client) => {
    const pair: Pair = { client, held: mode !== 'pass' };
    pairs.add(pair);
    client.on('error', () => drop(pair));
    client.on('close', () => drop(pair));
    if (pair.held) {
      heldConnections++;
      client.on('data', (d) => hold(d));
      return;
    }
    const upstream = net.connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on('error', () => drop(pair));
    upstream.on('close', () => drop(pair));
    client.on('data', (d) => (pair.held ? hold(d) : upstream.write(d)));
    upstream.on('data', (d) => {
      if (!pair.held) client.write(d);
    });
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    get mode() {
      return mode;
    },
    get heldConnections() {
      return heldConnections;
    },
    held: () => held,
    async setMode(next) {
      if (next === mode) return;
      const was = mode;
      mode = next;
      if (next === 'refuse') {
        for (const p of [...pairs]) drop(p);
        await new Promise<void>((resolve) => server.close(() => resolve()));
        return;
      }
      if (was === 'refuse') await listen(port);
      if (next === 'black-hole') for (const p of pairs) p.held = true;
      else for (const p of [...pairs]) if (p.held) drop(p);
    },
    async close() {
      for (const p of [...pairs]) drop(p);
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
