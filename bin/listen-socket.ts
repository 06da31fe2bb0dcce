// The API's listening socket under `npm start`: bound once by the primary and handed to each API process with its
// database (bin/supervisor.ts), which accepts from its own copy (runtime/server.ts's listenOn). The primary keeps a copy
// it never accepts from, so the socket outlives every API process: connections that arrive while a dead one is
// replaced wait in the kernel's queue for its replacement, as with the cluster module's shared handles, which this
// replaces. Owning it here is also what lets the primary answer the first requests itself while the first API process
// still loads (bin/warm-up.ts): it lends its copy to that server, which accepts from it until an API process listens;
// that process gives a copy back, and the lent one closes with the warm-up server.
import net from 'node:net';
import { lookup } from 'node:dns/promises';
import { getSystemErrorName } from 'node:util';

/** A socket's handle as child_process passes it between processes (send's second argument): a libuv TCP handle. */
export type SocketHandle = object;

/** libuv's TCP handle, as far as it is used here. */
interface TcpHandle { getsockname(out: object): number; close(): void }

// Node's own way of binding a server socket without accepting from it (the cluster module's shared handles use it):
// a handle that is bound but not listened on in this process.
const createServerHandle = (net as unknown as {
  _createServerHandle(address: string, port: number, addressType: number): TcpHandle | number;
})._createServerHandle;

export class ListenSocket {
  #handle: SocketHandle;
  #lent = false;
  #handedBack!: () => void;
  /** settles once an API process has given a copy back after the primary lent its own (lend) */
  readonly handedBack = new Promise<void>((resolve) => { this.#handedBack = resolve; });

  private constructor(handle: SocketHandle) { this.#handle = handle; }

  /** Binds `host`:`port` (a name is looked up first); a port in use is the error a user can act on. */
  static async bind(port: number, host: string): Promise<ListenSocket> {
    const address = net.isIP(host) ? { address: host, family: net.isIP(host) } : await lookup(host);
    const bound = createServerHandle(address.address, port, address.family);
    // libuv reports a port in use at the socket's first listen() or getsockname(), not at bind(): asked here, or the
    // first API process's listen() would bind the socket to some free port instead.
    const err = typeof bound === 'number' ? bound : bound.getsockname({});
    if (err) {
      if (typeof bound !== 'number') bound.close();
      const code = getSystemErrorName(err);
      throw new Error(code === 'EADDRINUSE' ? `Port ${port} is already in use; set PORT to another one.` : `Could not bind ${host}:${port}: ${code}`);
    }
    return new ListenSocket(bound as TcpHandle);
  }

  /** the copy an API process is sent */
  get handle(): SocketHandle { return this.#handle; }

  /** whether the primary's copy is lent and no API process has given one back yet */
  get lent(): boolean { return this.#lent; }

  /** The primary's own copy, for a server in this process that accepts from it and closes it when done. */
  lend(): SocketHandle {
    this.#lent = true;
    return this.#handle;
  }

  /** A copy an API process gave back: kept, never accepted from, to be sent to the next ones. */
  keep(handle: SocketHandle): void {
    // Several processes may answer one lending (WEB_CONCURRENCY > 1): one copy is enough.
    if (!this.#lent) return void (handle as { close(): void }).close();
    this.#handle = handle;
    this.#lent = false;
    this.#handedBack();
  }
}
