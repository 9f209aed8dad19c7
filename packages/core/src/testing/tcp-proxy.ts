import { connect, createServer, type Server, type Socket } from 'node:net';

export type TcpProxy = {
  /** The loopback port the proxy listens on, the same across cuts. */
  port: number;
  /** True while cut. */
  readonly isCut: boolean;
  /** Refuses new connections (the port is closed) and destroys every open one: an outage. */
  cut: () => Promise<void>;
  /** Listens on the same port again. */
  restore: () => Promise<void>;
  /** Connections opened through the proxy so far. */
  readonly connections: number;
  close: () => Promise<void>;
};

/**
 * A cuttable TCP proxy on 127.0.0.1 in front of `target` (PostgreSQL in the health and fault tests). Cutting
 * it is what a database outage looks like to a process: open connections reset, new ones refused.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  let connections = 0;

  const pipe = (client: Socket) => {
    connections += 1;
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const destroyBoth = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', destroyBoth).on('close', destroyBoth);
    upstream.on('error', destroyBoth).on('close', destroyBoth);
    client.pipe(upstream).pipe(client);
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer(pipe);
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        server = s;
        port = (s.address() as { port: number }).port;
        resolve();
      });
    });

  const cut = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = null;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (s) s.close(() => resolve());
      else resolve();
    });

  await listen();
  return {
    get port() {
      return port;
    },
    get isCut() {
      return server === null;
    },
    get connections() {
      return connections;
    },
    cut,
    restore: async () => {
      if (!server) await listen();
    },
    close: cut,
  };
}
