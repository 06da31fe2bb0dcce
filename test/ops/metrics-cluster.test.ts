// GET /metrics under `npm start` with two API processes: whichever process a scrape lands on, it reports the requests
// of both (summed through the primary), and the database gauges once.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request } from 'node:http';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { startApiCluster, type ApiCluster } from '../helpers/processes.js';
import { parseMetrics, valueOf } from './metrics-text.js';

const t = suite('ops: metrics across API processes');
let app: TestApp;
let cluster: ApiCluster;
t.before(async () => {
  app = await startTestApp();
  // Round robin: the primary hands each new connection to the next process, so requests certainly reach both.
  cluster = await startApiCluster(app.databaseUrl, { processes: 2, runWorker: false, env: { NODE_CLUSTER_SCHED_POLICY: 'rr' } });
});
t.after(async () => {
  await cluster.stop();
  await app.close();
});

/** One request on a connection of its own (no keep-alive), so that each may go to another process. */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false, headers }, (res) => {
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    }).on('error', reject).end();
  });
}

t('every scrape reports the sum over both processes, whichever answers it', async () => {
  const o = await makeOwner(app.db);
  const origin = new URL(cluster.url).origin;
  const n = 20;
  for (let i = 0; i < n; i++) {
    const res = await get(`${cluster.url}/accounts/${o.accountId}`, { authorization: `Bearer ${o.key}` });
    assert.is(res.status, 200, res.text);
  }
  for (let scrape = 0; scrape < 6; scrape++) {
    const res = await get(`${origin}/metrics`);
    assert.is(res.status, 200, res.text);
    const samples = parseMetrics(res.text);
    assert.is(valueOf(samples, 'http_requests_total', { operation: 'retrieveAccount', status_class: '2xx' }), n, `scrape ${scrape}`);
    assert.is(valueOf(samples, 'http_request_duration_seconds_count', { operation: 'retrieveAccount' }), n);
    // Earlier scrapes, counted by whichever process answered each.
    assert.is(valueOf(samples, 'http_requests_total', { operation: 'metrics' }), scrape);
    // Read from the database once, not once per process.
    assert.is(samples.filter((s) => s.name === 'background_jobs' && s.labels.state === 'queued').length, 1);
  }
});

t.run();
