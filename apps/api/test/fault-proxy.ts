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
  /** Holds each answer of the store this long before passing it on, in order (a slow store). */
  setDelay(ms: number): void;
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
  /** Answers being delayed, each with when it goes out (performance.now()), in order. */
  late: { due: number; data: Buffer }[];
}

/** A TCP proxy on 127.0.0.1 (a port of its own) in front of `target`, to cut a store off in tests. */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: FaultMode = 'pass';
  const pairs = new Set<Pair>();
  let held = '';
  let heldConnections = 0;
  let delayMs = 0;
  const hold = (data: Buffer) => {
    held += data.toString('latin1');
  };
  const drop = (pair: Pair) => {
    pairs.delete(pair);
    pair.client.destroy();
    pair.upstream?.destroy();
  };
  const server = net.createServer((client) => {
    const pair: Pair = { client, held: mode !== 'pass', late: [] };
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
    const answer = (d: Buffer) => {
      if (!pair.held) client.write(d);
    };
    // One timer at a time per connection, so the answers keep their order.
    const sendDue = () => {
      while (pair.late[0] && pair.late[0].due <= performance.now()) answer(pair.late.shift()!.data);
      if (pair.late[0]) setTimeout(sendDue, Math.max(1, pair.late[0].due - performance.now()));
    };
    upstream.on('data', (d) => {
      if (delayMs === 0 && pair.late.length === 0) return answer(d);
      pair.late.push({ due: performance.now() + delayMs, data: d });
      if (pair.late.length === 1) setTimeout(sendDue, delayMs);
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
    setDelay(ms) {
      delayMs = ms;
    },
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
