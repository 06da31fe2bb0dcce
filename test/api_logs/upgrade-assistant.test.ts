// The upgrade assistant over HTTP on a key with a known call history: exactly the changes that touch what it called.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const t = suite('upgrade assistant');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const assistant = async (token: string, keyId: string, query: Record<string, string> = {}) => {
  await app.server.apiLogs!.flush();
  return app.request('GET', `/api_keys/${keyId}/upgrade_assistant`, { token, query });
};

t('a key that called accounts and payments at 2026-09-02: the latest version\'s account and payment changes only', async () => {
  const o = await makeOwner(app.db);
  await app.request('GET', '/accounts/me', { token: o.key, version: '2026-09-02' });
  await app.request('GET', '/payments/pay_missing', { token: o.key, version: '2026-09-02' });
  const res = await assistant(o.token, o.keyId);
  assert.is(res.status, 200);
  assert.equal(res.body, {
    api_key_id: o.keyId, from: '2026-09-02', to: '2026-09-06', pins: ['2026-09-02', '2026-09-06'],
    operations_used: ['retrieveCurrentAccount', 'retrievePayment'], breaking: 2,
    changes: [
      { ref: '2026-09-06#1', version: '2026-09-06', entry: 1,
        changelog: 'Accounts have no `industry_group`; `business_type` and `industry_type` are read-only.',
        breaking: true, kind: 'field_removed', resource: 'Account', field: 'industry_group', in: 'response',
        description: 'industry_group: removed (older versions show industry_type under this name)',
        operations: ['retrieveCurrentAccount'], migration: null },
      { ref: '2026-09-06#4', version: '2026-09-06', entry: 4, changelog: 'Payments have no `pdf_url`; use `generate_pdf`.',
        breaking: true, kind: 'field_hidden', resource: 'Payment', field: 'pdf_url', in: 'response',
        description: 'pdf_url: no longer shown', operations: ['retrievePayment'], migration: null },
    ],
    migrations: [],
  });
  // Entries 2 and 3 (apps, transfers) are crossed too but touch nothing the key called.
});

t('a key that called nothing, or only at its pin, has nothing to upgrade', async () => {
  const o = await makeOwner(app.db);
  const none = await assistant(o.token, o.keyId);
  assert.is(none.status, 200);
  assert.equal([none.body.from, none.body.to, none.body.operations_used, none.body.changes], ['2026-09-06', '2026-09-06', [], []]);
  await app.request('GET', '/accounts/me', { token: o.key });
  const atPin = await assistant(o.token, o.keyId);
  assert.equal(atPin.body.changes, []);
  assert.equal(atPin.body.operations_used, ['retrieveCurrentAccount']);
});

t('target: a date between versions means the one in force; the oldest pin is where it starts', async () => {
  const o = await makeOwner(app.db);
  await app.request('GET', '/accounts/me', { token: o.key, version: '2026-09-02' });
  await app.request('GET', '/payments/pay_missing', { token: o.key, version: '2026-09-02' });
  const res = await assistant(o.token, o.keyId, { target: '2026-09-05' }); // 2026-09-02 is still in force
  assert.is(res.status, 200);
  assert.is(res.body.to, '2026-09-02');
  assert.equal(res.body.changes, []);
  const bad = await assistant(o.token, o.keyId, { target: '2020-01-01' });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.param, 'target');
  const malformed = await assistant(o.token, o.keyId, { target: 'soon' });
  assert.is(malformed.status, 400);
  assert.is(malformed.body.error.param, 'target');
});

t('npm run diff -- --key gives what the endpoint gives, from the database', async () => {
  const o = await makeOwner(app.db);
  await app.request('GET', '/accounts/me', { token: o.key, version: '2026-09-02' });
  const http = await assistant(o.token, o.keyId);
  const { stdout } = await promisify(execFile)('npx', ['tsx', 'bin/diff.ts', '--key', o.keyId, '--json'],
    { env: { ...process.env, DATABASE_URL: app.databaseUrl } });
  assert.equal(JSON.parse(stdout), { object: 'upgrade_assistant', ...http.body });
  assert.is(http.body.changes.length, 1);
});

t('another account\'s key is a 404', async () => {
  const a = await makeOwner(app.db);
  const b = await makeOwner(app.db);
  const res = await assistant(a.token, b.keyId);
  assert.is(res.status, 404);
  assert.is(res.body.error.type, 'not_found');
});

t.run();
