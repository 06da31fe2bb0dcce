// add_job on a long-lived connection keeps finding job keys through the index after the job table has grown
// (runtime/migrate.ts planAddJobsPerCall). Without it, the plan cached while the table was small scans it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { startTestApp, type TestApp } from '../helpers/harness.js';

const t = suite('background job plans');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const ADD_JOB = `select graphile_worker.add_job($1, $2::json, job_key => $3)`;

t('add_job never scans the job table, however it has grown since the connection first added a job', async () => {
  const client = new pg.Client(app.databaseUrl);
  await client.connect();
  try {
    await client.query("truncate graphile_worker._private_jobs");
    await client.query('analyze graphile_worker._private_jobs');
    // More than five runs: PostgreSQL settles on a cached generic plan after five.
    for (let i = 0; i < 8; i++) await client.query({ name: 'add', text: ADD_JOB, values: ['plan_probe', '{}', `warm-${i}`] });
    await app.db.raw(`insert into graphile_worker._private_jobs (task_id, payload, key)
      select (select id from graphile_worker._private_tasks where identifier = 'plan_probe'), '{}', 'bulk-' || n
      from generate_series(1, 20000) n`);

    const plans: string[] = [];
    client.on('notice', (n) => plans.push(n.message ?? ''));
    await client.query("LOAD 'auto_explain'");
    await client.query('SET auto_explain.log_nested_statements = on');
    await client.query('SET auto_explain.log_min_duration = 0');
    await client.query('SET client_min_messages = log');
    await client.query({ name: 'add', text: ADD_JOB, values: ['plan_probe', '{}', 'after-growth'] });
    await client.query('SET client_min_messages = notice');

    const keyLookup = plans.find((p) => p.includes('update "graphile_worker"._private_jobs as jobs'));
    assert.ok(keyLookup, `auto_explain showed the key lookup; got ${plans.length} plans`);
    assert.not.match(keyLookup!, /Seq Scan on _private_jobs/);
    assert.match(keyLookup!, /Index Scan using \w+ on _private_jobs/);
  } finally {
    await client.end();
  }
});

t.run();
