// What api logs cost a request, measured directly (at most 3% of a read's throughput, the bound). A throughput ratio
// between a server with api logs and one without cannot show 3% here: two identical servers differ by more than
// that from run to run. The writer's own work can be measured exactly instead: `record()` as requests call it and
// the batched inserts it makes, in this process (its CPU) and in PostgreSQL (its processes' CPU, from /proc). On a
// machine whose cores the server and the database share, a request's throughput is bounded by their CPU per request,
// so the writer's CPU per logged request over a read's CPU per request is what logging can take from it.
// The writer runs in a process of its own, as it does in an API process: in the bench's own process its CPU counted the
// collections of that process's heap (the load generator's results), ~1 µs a request more. PostgreSQL's CPU is read
// from every one of its processes, so the measure first waits until no other session runs a statement.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { createKnex } from '../runtime/db.js';
import { apiLogWriter } from '../runtime/api-log.js';
import { createLogger } from '../runtime/logger.js';
import { newRequestId } from '../runtime/ids.js';
import type { Principal } from '../runtime/principal.js';
import { postgresCpuBetween, postgresCpuTicks, waitForQuietDatabase } from './postgres-cpu.js';

export interface WriterCost {
  rows: number;
  /** µs of this process's CPU per logged request: recording it, and its share of the batch's statement */
  node: number;
  /** µs of PostgreSQL's CPU per logged request; null where /proc cannot tell */
  database: number | null;
}

interface WriterJob { databaseUrl: string; postmaster: string | null; principal: Principal; version: string }

/** measureApiLogWriter in a child process of its own, once PostgreSQL is quiet. */
export async function measureApiLogWriterApart(db: Knex, job: WriterJob): Promise<WriterCost> {
  await waitForQuietDatabase(db);
  // The child runs as this process does (tsx's loader among its Node flags).
  const child = fork(fileURLToPath(import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const cost = new Promise<WriterCost>((resolve) => child.once('message', (m) => resolve(m as WriterCost)));
  child.send(job);
  const code = await exited;
  if (code !== 0) throw new Error(`the api log writer's measure exited with code ${code}`);
  return cost;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.send) {
  process.once('message', (job: WriterJob) => {
    void measureApiLogWriter(job.databaseUrl, job.postmaster, job.principal, job.version).then((cost) => process.send!(cost, () => process.exit(0)));
  });
}

/** Logs `rows` requests of `principal` through a writer of its own, as a busy server would (a few requests between
 * turns of the event loop, batches written as they fill), and reads the CPU both sides spent. */
export async function measureApiLogWriter(databaseUrl: string, postmaster: string | null, principal: Principal,
  version: string, rows = 100_000): Promise<WriterCost> {
  const db = createKnex(databaseUrl, 2);
  const writer = apiLogWriter(db, createLogger());
  const requestIds = Array.from({ length: 1000 }, () => newRequestId());
  const logSome = (from: number, count: number) => {
    for (let i = from; i < from + count; i++) {
      writer.record({ principal, operation: 'retrievePayment', method: 'GET', path: '/payments/{id}', status: 200,
        durationMs: 3 + (i % 7) / 10, version, requestId: requestIds[i % requestIds.length] });
    }
  };
  try {
    logSome(0, 1000); // warm: the insert prepared on its connection, record() compiled
    await writer.flush();
    const cpuBefore = process.cpuUsage();
    const databaseBefore = postgresCpuTicks(postmaster);
    for (let i = 0; i < rows; i += 20) {
      logSome(i, 20);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await writer.close();
    const cpu = process.cpuUsage(cpuBefore);
    const database = postgresCpuBetween(databaseBefore, postgresCpuTicks(postmaster));
    return { rows, node: (cpu.user + cpu.system) / rows, database: database === null ? null : database / rows };
  } finally {
    await db.destroy();
  }
}
