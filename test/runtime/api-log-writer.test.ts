// The api log writer (runtime/api-log.ts) keeps each account's requests of a minute as column texts in byte buffers
// until its flush, and reuses those buffers for later groups: what a flush stores is every request's values, in order,
// under its own account, whatever came before in the same buffers, non-ASCII included.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { apiLogWriter } from '../../runtime/api-log.js';
import { createLogger } from '../../runtime/logger.js';
import type { Principal } from '../../runtime/principal.js';

const t = suite('runtime: the api log writer');
let app: TestApp;
let first: Awaited<ReturnType<typeof makeOwner>>;
let second: Awaited<ReturnType<typeof makeOwner>>;
t.before(async () => {
  app = await startTestApp();
  [first, second] = [await makeOwner(app.db), await makeOwner(app.db)];
});
t.after(async () => { await app.close(); });

const keyOf = (o: typeof first): Principal => ({ kind: 'api_key', credentialId: o.keyId, accountId: o.accountId, userId: null, keyScopes: null,
  versionPin: null });

interface Logged { principal: Principal; operation: string; path: string; status: number; durationMs: number; requestId: string; target: string | null;
  version: string | null }
let requests = 0;
function logged(principal: Principal, overrides: Partial<Logged> = {}): Logged {
  requests++;
  return { principal, operation: 'retrievePayment', path: '/payments/{id}', status: 200, durationMs: requests % 9 + 0.4,
    requestId: `req_writer_${requests}`, target: `/payments/pay_${requests}`, version: '2026-09-06', ...overrides };
}

/** The stored batches of these accounts, each column split back into its values. */
async function stored(accountIds: string[]) {
  const { rows } = await app.db.raw(`select account_id, entries, api_key_ids, kinds, operations, paths, statuses, durations, versions,
      request_ids, targets from api_log_batches where account_id = any(?) order by first_at, id`, [accountIds]);
  return rows.map((r: Record<string, string | number>) => ({
    account: r.account_id, entries: r.entries,
    ...Object.fromEntries(['api_key_ids', 'kinds', 'operations', 'paths', 'statuses', 'durations', 'versions', 'request_ids', 'targets']
      .map((c) => [c, String(r[c] ?? '').split('\x1f')])),
  }));
}

t('two accounts in one flush, then fewer and shorter values in the reused buffers', async () => {
  const writer = apiLogWriter(app.db, createLogger(), { flushMs: 60_000, batchRows: 1000 });
  const firstBatch = [
    logged(keyOf(first), { target: '/payments?query=%C3%A9t%C3%A9&note=été — ünïcode', operation: 'listPayments', path: '/payments' }),
    logged(keyOf(second), { status: 404, version: null, target: null }),
    logged(keyOf(first), { status: 201, operation: 'createPayment', path: '/payments', target: null }),
  ];
  for (const e of firstBatch) writer.record({ ...e, method: 'GET' });
  await writer.flush();
  // Shorter values than the first flush's: nothing of those may show through.
  const secondBatch = [logged(keyOf(second), { requestId: 'r1', target: '/x', durationMs: 1 })];
  for (const e of secondBatch) writer.record({ ...e, method: 'GET' });
  await writer.close();

  const batches = await stored([first.accountId, second.accountId]);
  const ofFirst = batches.filter((b: { account: string }) => b.account === first.accountId);
  const ofSecond = batches.filter((b: { account: string }) => b.account === second.accountId);
  assert.is(ofFirst.length, 1);
  assert.is(ofSecond.length, 2);
  const expect = (es: Logged[]) => ({
    entries: es.length, api_key_ids: es.map((e) => e.principal.credentialId), kinds: es.map(() => 'api_key'), operations: es.map((e) => e.operation),
    paths: es.map((e) => e.path), statuses: es.map((e) => String(e.status)), durations: es.map((e) => String(Math.round(e.durationMs))),
    versions: es.map((e) => e.version ?? ''), request_ids: es.map((e) => e.requestId), targets: es.map((e) => e.target ?? ''),
  });
  const strip = ({ account: _a, ...rest }: Record<string, unknown>) => rest;
  assert.equal(strip(ofFirst[0]), expect([firstBatch[0], firstBatch[2]]));
  assert.equal(strip(ofSecond[0]), expect([firstBatch[1]]));
  assert.equal(strip(ofSecond[1]), expect(secondBatch));
  // Empty values are stored as nothing between separators, which the reads take as null (handlers/api_logs/log-rows.ts).
  const { rows } = await app.db.raw('select versions, targets from api_log_batches where account_id = ? order by first_at, id limit 1', [second.accountId]);
  assert.equal(rows[0], { versions: '', targets: '' });
});

t.run();
