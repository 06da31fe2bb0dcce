// The deprecation report (npm run cli -- deprecations, handlers/api_logs/deprecated-usage.ts) on a large api log:
// LARGE_TABLE_ROWS batches (default 20,000) written in time order over 70 days, a tenth of them in the last week. The
// report must read the week's batches through the last_at BRIN index of migrations/490, not the whole table. And on a
// subscription's long delivery history (as many deliveries, over the same 70 days), the fields' part reads the
// week's deliveries through (webhook_id, created_at, id), not the subscription's whole history.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { operations } from '../../generated/routes.js';
import { deprecationReport } from '../../handlers/api_logs/deprecated-usage.js';
import { deprecatedFields } from '../../generated/deprecated-fields.js';
import { specData } from '../../generated/spec-data.js';
import { assertIndexed, costOf, recorded, reportCost } from './statement-cost.js';

const ROWS = Number(process.env.LARGE_TABLE_ROWS ?? 20_000);
const t = suite('large tables: the deprecation report reads the window only');
let app: TestApp;
let accountId: string;
let webhookId: string;

t.before(async () => {
  app = await startTestApp();
  const owner = await makeOwner(app.db);
  accountId = owner.accountId;
  // A subscription to the one event type whose payload carries a deprecated field (Webhook.api_version), pinned where
  // the field is still rendered.
  const hook = await app.request('POST', '/webhooks', { token: owner.key, version: '2026-09-06',
    body: { account_id: accountId, url: 'https://receiver.example/hooks', events: ['webhook.disabled'], api_version_date: '2026-07-20' } });
  assert.is(hook.status, 201, JSON.stringify(hook.body));
  webhookId = hook.body.id;
  // Oldest first, as the writer appends them: batch i ends (ROWS - i) * 70 days / ROWS ago.
  // sql-state-write: bulk seeding for a query-plan case: ROWS batches through the API would take far longer than the test
  await app.db.raw(`insert into api_log_batches (id, account_id, first_at, last_at, entries, api_key_ids, user_ids, kinds, operations,
      methods, paths, statuses, durations, versions, request_ids, created_ms)
    select 'alogb_dep' || i, '${accountId}', at, at, 1, 'apik_dep', '', 'api_key', case when i % 2 = 0 then 'listPlans' else 'listVariants' end,
      'GET', '/plans', '200', '3', '2026-09-06', 'req_dep' || lpad(i::text, 12, '0'), ((extract(epoch from at) * 1000)::bigint)::text
    from (select i, date_trunc('milliseconds', now() - ((${ROWS} - i) * interval '70 days' / ${ROWS})) as at from generate_series(1, ${ROWS}) i) s`);
  // sql-state-write: bulk seeding for a query-plan case: ROWS events and their deliveries, oldest first, as dispatch writes them
  await app.db.raw(`insert into events (id, type, account_id, data, created_at, dispatched_at)
    select 'evt_dep' || i, 'webhook.disabled', '${accountId}', '{}'::jsonb, at, at
    from (select i, now() - ((${ROWS} - i) * interval '70 days' / ${ROWS}) as at from generate_series(1, ${ROWS}) i) s`);
  // sql-state-write: bulk seeding for a query-plan case: each seeded event's delivery, succeeded
  await app.db.raw(`insert into webhook_deliveries (id, webhook_id, event_id, status, attempts, created_at, updated_at, delivered_at)
    select 'whdl_dep' || i, '${webhookId}', 'evt_dep' || i, 'succeeded', 1, at, at, at
    from (select i, now() - ((${ROWS} - i) * interval '70 days' / ${ROWS}) as at from generate_series(1, ${ROWS}) i) s`);
  await app.db.raw('analyze api_log_batches');
  await app.db.raw('analyze events');
  await app.db.raw('analyze webhook_deliveries');
});
t.after(async () => { await app.close(); });

t('the week\'s batches are found through the BRIN index; the older nine tenths are not read row by row', async () => {
  const { result, statements } = await recorded(() => deprecationReport(app.db, operations, 7));
  const plans = result.operations.find((op) => op.operation === 'listPlans')!;
  const inWeek = Math.floor(ROWS / 10);
  assert.ok(Math.abs(plans.accounts[0].calls - inWeek / 2) <= 2, `${plans.accounts[0].calls} calls of listPlans in the week`);
  const cost = await costOf(app.db, statements, /from api_log_batches b/);
  reportCost('deprecation report', cost);
  assertIndexed(cost, 'api_log_batches', { bitmap: true });
  assert.ok(cost.nodes.some((n) => n.includes('api_log_batches_last_at_brin') || n.includes('api_log_batches_account_last_at')), cost.plan);
  assert.ok((cost.rowsRead.api_log_batches ?? 0) <= 2 * inWeek, `read ${cost.rowsRead.api_log_batches} batches for ${inWeek} in the week: ${cost.plan}`);
});

t('a subscription\'s week of deliveries is read through (webhook_id, created_at), not its whole history', async () => {
  const { result, statements } = await recorded(() => deprecationReport(app.db, operations, 7,
    { fields: deprecatedFields, versions: specData.versions }));
  const field = result.fields.find((f) => f.field === 'Webhook.api_version')!;
  const subscription = field.subscriptions.find((s) => s.webhook_id === webhookId);
  const inWeek = Math.floor(ROWS / 10);
  assert.ok(subscription, JSON.stringify(field.subscriptions));
  assert.ok(Math.abs(subscription!.deliveries - inWeek) <= 2, `${subscription!.deliveries} deliveries in the week`);
  const cost = await costOf(app.db, statements, /from webhooks w/);
  reportCost('deprecation report, deliveries', cost);
  assert.ok(cost.nodes.some((n) => n.includes('webhook_deliveries_webhook_id_created_at_id_index')), cost.plan);
  assert.ok((cost.rowsRead.webhook_deliveries ?? 0) <= 2 * inWeek, `read ${cost.rowsRead.webhook_deliveries} deliveries for ${inWeek} in the week: ${cost.plan}`);
});

t.run();
