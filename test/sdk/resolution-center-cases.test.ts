// client.resolutionCenterCases through the official client at its default pin (2026-07-20): list and retrieve in
// the shape from before entry 50.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { call, openCase, seller } from '../resolution_center_cases/case-fixtures.js';
import { collectAll, sdk } from './sdk-helpers.js';

const t = suite('sdk: resolution center cases');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('resolutionCenterCases: list (company_id, statuses) and retrieve', async () => {
  const s = await seller(app);
  const a = await openCase(app, s);
  const b = await openCase(app, s, { reason: 'forgot_to_cancel' });
  await call(app, s.key, 'POST', `/resolution_center_cases/${b.c.id}/refund`, {});
  const client = sdk(app, s.key);
  const listed = await collectAll(client.resolutionCenterCases.list({ company_id: s.accountId }));
  assert.equal(listed.map((x) => [x.id, x.issue, x.status, x.payment.id, x.company?.id, x.due_date === null]),
    [[b.c.id, 'forgot_to_cancel', 'customer_won', b.payment.id, s.accountId, true], [a.c.id, 'item_not_received', 'merchant_response_needed', a.payment.id, s.accountId, false]]);
  const open = await collectAll(client.resolutionCenterCases.list({ company_id: s.accountId, statuses: ['merchant_response_needed'] }));
  assert.equal(open.map((x) => x.id), [a.c.id]);
  const one = await client.resolutionCenterCases.retrieve(a.c.id);
  assert.equal([one.status, one.merchant_response_actions, one.customer_response_actions, one.user.id, one.due_date],
    ['merchant_response_needed', ['respond', 'accept'], ['respond', 'withdraw'], a.payment.buyerId, a.c.response_due_at]);
});

t.run();
