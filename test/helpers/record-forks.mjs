// Preloaded into a primary (`node --import`), this records the pid of every process it forks through node:cluster
// into FORKED_PIDS_FILE as the fork returns, so a test knows each API process even when it dies before it could
// report itself. An API process killed during Node's own bootstrap runs no code of its own, preloaded or not.
import cluster from 'node:cluster';
import { appendFileSync } from 'node:fs';

const out = process.env.FORKED_PIDS_FILE;
if (cluster.isPrimary && out) {
  const fork = cluster.fork;
  cluster.fork = function recordedFork(...args) {
    const worker = fork.apply(this, args);
    appendFileSync(out, `${worker.process.pid}\n`);
    return worker;
  };
}
