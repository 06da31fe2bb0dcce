// A TCP forward from an address the hosts reach (the bridge's, in the root namespace) to a service that listens on
// loopback only (this machine's PostgreSQL and Redis, or the suite's embedded PostgreSQL): the hosts then reach them
// over the network, as separate machines would, while the services keep listening where they do.
import { connect, createServer, type Socket } from 'node:net';

export interface TcpForward {
  /** host:port the forward listens on */
  address: string;
  close(): Promise<void>;
}

export async function forwardTcp(listen: { host: string; port: number }, target: { host: string; port: number }): Promise<TcpForward> {
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    track(client);
    track(upstream);
    // Either side closing or failing ends both: a killed host's connections end at the service too.
    const end = () => { client.destroy(); upstream.destroy(); };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  return {
    address: `${listen.host}:${listen.port}`,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
