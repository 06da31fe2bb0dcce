// How `npm start`'s primary forks its API processes (node's cluster module): the settings the launcher
// (bin/launch.mjs, which forks the first one before it has checked or loaded anything else) and the supervisor
// (bin/supervisor.ts) share. Plain JavaScript: the launcher runs it before anything is compiled.
import cluster from 'node:cluster';

import { join } from 'node:path';

/** bin/api-boot.cjs under the project's root: the launcher and the bundled primary name it from their own roots.
 * @param {string} root */
export const apiBootFile = (root) => join(root, 'bin', 'api-boot.cjs');

/** The message that tells a process forked on bin/api-boot.cjs to load its code. */
export const LOAD_MESSAGE = { type: 'api-process-load' };

/**
 * Node flags of every API process. The young generation's semi-space is capped at 8 MB: under load V8 grew it to its
 * 16 MB default, 16 MB more resident memory per process, for no CPU it saved (the bench's GET /accounts/{id}, run
 * alone: 244 and 306 µs of CPU per request at the default, 236 and 294 capped).
 *
 * No memory reducer: when traffic paused, V8's memory reducer ran a full GC on the idle process, which freed the maps of
 * the requests' objects (none was alive) and with them ~130 functions' optimized code that depended on those maps
 * ("marking dependent code ... reason: weak objects" under --trace-deopt). When traffic came back, those requests ran
 * unoptimized while TurboFan compiled them again: the bench's POST /payments after a pause compiled 237 functions in
 * 1.2 s of CPU, against 82 in 0.4 s with the reducer off. A busy process collects as before (the reducer only acts
 * when allocation stops); an idle one keeps its heap's size until its next GC instead of shrinking it.
 *
 * The bench runs its framework side with these flags too (bench/run.ts).
 */
export const API_PROCESS_NODE_FLAGS = ['--max-semi-space-size=8', '--no-memory-reducer'];

/**
 * Forks run `exec`, or, given `boot` (bin/api-boot.cjs), run `boot` with `exec` as its argument: the process boots
 * and waits for LOAD_MESSAGE before it loads `exec`.
 * @param {string} exec
 * @param {string | undefined} boot
 */
export function setUpApiCluster(exec, boot) {
  // Each process accepts from the socket the primary shares with it (bin/listen-socket.ts) rather than the primary
  // accepting and handing each connection over (the cluster module's round robin): a connection handed to a process
  // that is killed before it takes it is never answered nor closed (the primary keeps it; the client waits for its own
  // timeout, 300 s for fetch), while a connection the kernel still holds is simply accepted by a live process.
  // NODE_CLUSTER_SCHED_POLICY=rr, read by the cluster module itself, chooses round robin anyway (bin/start.ts).
  const execArgv = [...process.execArgv, ...API_PROCESS_NODE_FLAGS];
  cluster.setupPrimary(boot ? { exec: boot, args: [exec], execArgv } : { exec, execArgv });
}
