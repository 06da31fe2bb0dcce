// `npm run test:smoke`: the server as `npm start` runs it (bin/launch.mjs: dist/, built by bin/build.mjs when stale;
// no tsx), on a fresh database of DATABASE_URL's server (or an embedded one), with two API processes and their
// workers. Credentials come from the bundled CLI, objects from the API. It checks every route outside /api/v1
// (pages.ts), one valid call of every operation at the latest version and at 2026-07-20 (operations.ts: no 5xx, a
// declared status), the v2 API, and a payment collected by the bundled worker; and ends with "N passed, N failed, N skipped".

// Composed as a server process is: it runs handlers and runtime code that read the API's definition.
import '../../wiring/compose.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openServer, createKnex, withDatabase } from '../../runtime/db.js';
import { ensureDatabase, dropDatabase } from '../../runtime/bootstrap.js';
import { randomToken } from '../../runtime/ids.js';
import { projectRoot } from '../../runtime/project-root.js';
import { headVersion } from '../../runtime/versions.js';
import { DIST } from '../../bin/dist-sources.mjs';
import { startApiCluster, type ApiCluster } from '../helpers/processes.js';
import { idPool } from '../fuzz/fuzz-world.js';
import type { IdPool } from '../fuzz/schema-values.js';
import { checks, expect } from './checks.js';
import { seedWorld } from './seed.js';
import { checkPages } from './pages.js';
import { checkOperations, checkV2, type Tally } from './operations.js';
import { closingLine } from '../helpers/skip.js';

/** The older pin the suite also calls every operation at: the official client's default (docs/versions.md). */
const OLDER_PIN = '2026-07-20';
const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);

const server = await openServer(join(projectRoot, '.data', `pg-smoke-${process.pid}`), { persistent: false, durable: false });
const adminUrl = process.env.DATABASE_URL ? withDatabase(server.url, 'postgres') : server.url;
const database = `smoke_${randomToken(8).toLowerCase()}`;
const databaseUrl = await ensureDatabase(adminUrl, database);
const fileStore = mkdtempSync(join(tmpdir(), 'smoke-files-'));
const c = checks();
let cluster: ApiCluster | undefined;
let tallies: Map<string, Tally> | undefined;
try {
  cluster = await startApiCluster(databaseUrl, {
    // Warnings and errors are shown: an API process that exits says so (bin/supervisor.ts), a 500 says why.
    processes: 2, runWorker: true, compiled: true, showLogs: true,
    env: { RATE_LIMIT_MULTIPLIER: '1000', FILE_STORAGE_DIR: fileStore, CRYPTO_NETWORK_SECONDS: '0', LOG_LEVEL: process.env.SMOKE_LOG_LEVEL ?? 'warn' },
  });
  const apiUrl = cluster.url;
  const origin = new URL(apiUrl).origin;
  console.log(`smoke: npm start (the bundle in dist/) listening on ${origin} after ${seconds()} s, Node ${process.version}`);
  await c.check('the API processes run the bundle (dist/bin/api-process.cjs), not tsx', () => {
    for (const pid of cluster!.pids()) {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect(command.includes(join(DIST, 'bin', 'api-process.cjs')), `process ${pid} runs ${command.join(' ')}`);
      expect(!command.some((arg) => arg.includes('tsx')), `process ${pid} runs tsx: ${command.join(' ')}`);
    }
  });

  const world = await seedWorld(c, databaseUrl, apiUrl);
  console.log(`smoke: seeded through the bundled CLI and the API after ${seconds()} s`);
  // The ids there are, read (never written) from the database, the suite's own account's first.
  const db = createKnex(databaseUrl, 2);
  try {
    const ids = async (): Promise<IdPool> => {
      const pool = await idPool(db, [world.accountId, world.ownerId], world.keep);
      // The seeded objects in their most useful state (the collected payment, a live plan) before any other.
      const preferred = (prefix: string) => world.preferred.filter((id) => id.startsWith(prefix));
      return { ...pool, real: (prefix) => [...new Set([...preferred(prefix), ...pool.real(prefix)])] };
    };
    await checkPages(c, origin, world);
    tallies = await checkOperations(c, apiUrl, world, ids, [headVersion(), OLDER_PIN]);
    await checkV2(c, origin, world, await ids(), headVersion());
  } finally {
    await db.destroy();
  }
  for (const [version, t] of tallies ?? []) {
    const statuses = [...t.byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
    console.log(`smoke: ${version}: ${t.reached2xx} of ${t.operations} operations reached a 2xx (${t.calls} calls; statuses ${statuses})`);
  }
  await c.check('GET /metrics still answers after every operation was called', async () => {
    const res = await fetch(`${origin}/metrics`);
    expect(res.status === 200, `GET /metrics -> ${res.status}`);
    const text = await res.text();
    expect(!/status_class="5xx"/.test(text), `a 5xx was counted: ${text.split('\n').filter((l) => l.includes('5xx')).slice(0, 5).join('; ')}`);
  });
} catch (e) {
  c.fail('smoke suite', (e as Error).stack ?? String(e));
} finally {
  await cluster?.stop();
  await dropDatabase(adminUrl, database).catch(() => {});
  await server.stop();
  rmSync(fileStore, { recursive: true, force: true });
}
console.log(`smoke: ${seconds()} s`);
console.log(closingLine({ passed: c.passed, failed: c.failed, skipped: 0 }));
process.exit(c.failed > 0 || c.passed === 0 ? 1 : 0);
