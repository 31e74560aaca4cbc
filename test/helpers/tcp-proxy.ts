// A TCP proxy the test controls, standing between a server process and PostgreSQL: it forwards,
// refuses new connections (nothing listens: ECONNREFUSED, as a database that is down), and cuts
// the connections it carries (both sides see a reset, as on a failover or a network fault).
import net from 'node:net';

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1 (the same for its whole life). */
  port: number;
  /** Connections being forwarded now. */
  readonly open: number;
  /** Listens again and forwards new connections. */
  forward(): Promise<void>;
  /** Stops listening: new connections are refused. Carried connections stay until cut. */
  refuse(): Promise<void>;
  /** Resets every carried connection, on both sides. */
  cut(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let server: net.Server | undefined;

  const accept = (client: net.Socket) => {
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  };

  const listen = async () => {
    if (server) return;
    const next = net.createServer(accept);
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(proxy.port, '127.0.0.1', () => {
        next.off('error', reject);
        resolve();
      });
    });
    proxy.port = (next.address() as net.AddressInfo).port;
    server = next;
  };

  const stopListening = async () => {
    const current = server;
    server = undefined;
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };

  const proxy: TcpProxy = {
    port,
    get open() {
      return pairs.size;
    },
    forward: listen,
    refuse: async () => {
      // close() waits for carried connections to end; refusing must not wait for them
      const closing = stopListening();
      await new Promise((resolve) => setImmediate(resolve));
      void closing;
    },
    cut: () => {
      for (const pair of [...pairs]) {
        pairs.delete(pair);
        pair.client.resetAndDestroy();
        pair.upstream.resetAndDestroy();
      }
    },
    close: async () => {
      proxy.cut();
      await stopListening();
    },
  };
  await listen();
  return proxy;
}
