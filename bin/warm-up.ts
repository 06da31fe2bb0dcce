// The primary's warm-up server: at `npm start` the primary loads the API process's bundle itself and answers the
// first requests while its first API process still boots and loads the same code. An API process's Node starts only
// once the primary's has, so from launch to the first answer two Node starts came one after the other, against one for
// a server that is a single process (bench/start-up.ts). The warm-up server accepts from the primary's own copy of the
// listening socket (bin/listen-socket.ts) until an API process listens and gives a copy back, then stops: from there
// the API processes answer, supervised as before, and the primary keeps the loaded code, unused.
import { preloadedApiBundle } from './warm-up-load.mjs';
import type { serveWarmUp } from './api-process.js';
import type { ListenSocket } from './listen-socket.js';

export type ServeWarmUp = typeof serveWarmUp;

/** serveWarmUp of the bundle the launcher loaded (bin/warm-up-load.mjs), if it did. */
export function preloadedWarmUp(): ServeWarmUp | null {
  return (preloadedApiBundle() as { serveWarmUp?: ServeWarmUp } | undefined)?.serveWarmUp ?? null;
}

export interface WarmUp {
  /** settles once the server has stopped: an API process took over, it was stopped, the database was not current, or
   * it could not start */
  done: Promise<void>;
  /** true once the server listens (the database was current), false once it is known that it will not */
  serving: Promise<boolean>;
  stop(): Promise<void>;
}

/** Serves on the primary's copy of `listen` until an API process gives one back (or stop()), if the database is
 * current: one that is not is the primary's to migrate first, and its API processes answer once it has. A failure
 * is reported, and the API processes serve as they would have without it. */
export function runWarmUp(serve: ServeWarmUp, databaseUrl: string, listen: ListenSocket,
  on: { listening(url: string): void; failed(e: unknown): void }): WarmUp {
  let stopRequested!: () => void;
  const stopped = new Promise<void>((resolve) => { stopRequested = resolve; });
  let settle!: (serving: boolean) => void;
  const serving = new Promise<boolean>((resolve) => { settle = resolve; });
  const done = (async () => {
    const server = await serve(databaseUrl, () => listen.lend());
    if (!server) return;
    on.listening(server.url);
    settle(true);
    await Promise.race([listen.handedBack, stopped]);
    await server.stop();
  })().catch(on.failed).finally(() => settle(false));
  return { done, serving, stop: () => { stopRequested(); return done; } };
}
