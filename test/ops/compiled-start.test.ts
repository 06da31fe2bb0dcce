// `npm start` runs compiled JavaScript (bin/launch.mjs: dist/ built by bin/build.mjs), rebuilding it when a source
// changed, and serves the same API as the TypeScript run by tsx.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { startApiCluster } from '../helpers/processes.js';
import { projectRoot } from '../../runtime/project-root.js';
import { distIsStale, DIST } from '../../bin/dist-sources.mjs';

const t = suite('ops: npm start runs the compiled server');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('a changed source makes dist/ stale; npm start rebuilds it and serves the API from it', async () => {
  // A source touched after the last build (its modification time moved) makes the bundle stale.
  const source = join(projectRoot, 'runtime', 'logger.ts');
  const { atime } = statSync(source);
  utimesSync(source, atime, new Date());
  assert.ok(distIsStale(), 'dist/ is stale after a source changed');

  const o = await makeOwner(app.db);
  const cluster = await startApiCluster(app.databaseUrl, { processes: 1, runWorker: false, compiled: true });
  try {
    assert.not.ok(distIsStale(), 'npm start rebuilt dist/ from the sources as they are');
    const [pid] = cluster.pids();
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    assert.ok(command.some((arg) => arg === join(DIST, 'bin', 'api-process.cjs')), `the API process runs dist/bin/api-process.cjs: ${command.join(' ')}`);
    assert.not.ok(command.some((arg) => arg.includes('tsx')), 'no tsx at run time');
    const res = await fetch(`${cluster.url}/accounts/${o.accountId}`, { headers: { authorization: `Bearer ${o.key}` } });
    assert.is(res.status, 200);
    assert.is((await res.json()).id, o.accountId);
    const openapi = await fetch(`${cluster.url}/openapi.json`);
    assert.is(openapi.status, 200, 'data files (generated/openapi.json) resolve from the bundle');
    // The primary sums the API processes' metrics with prom-client loaded on demand (bin/prom-aggregator.ts).
    const metrics = await fetch(`${new URL(cluster.url).origin}/metrics`);
    assert.is(metrics.status, 200, `GET /metrics from the bundle: ${await metrics.clone().text()}`);
    assert.match(await metrics.text(), /^http_requests_total\{/m);
  } finally {
    await cluster.stop();
  }
});

t('the API process is compiled from the code cache its first run wrote, which the next run takes as it is', async () => {
  // The first API process after a build writes the cache (bin/code-cache.cjs); one whose cache V8 rejected would
  // write it again, so an unchanged file is an accepted cache.
  const cache = join(DIST, 'bin', 'api-process.bundle.cjs.v8cache');
  assert.ok(existsSync(cache), 'the first run wrote the code cache');
  const written = statSync(cache);
  assert.ok(written.size > 100_000, `the cache holds compiled code (${written.size} bytes)`);
  const o = await makeOwner(app.db);
  const cluster = await startApiCluster(app.databaseUrl, { processes: 1, runWorker: false, compiled: true });
  try {
    const res = await fetch(`${cluster.url}/accounts/${o.accountId}`, { headers: { authorization: `Bearer ${o.key}` } });
    assert.is(res.status, 200);
    assert.is(statSync(cache).mtimeMs, written.mtimeMs, 'the second run read the cache and did not rewrite it');
  } finally {
    await cluster.stop();
  }
});

t.run();
