// The recover_past_due_memberships rule of Economic Intelligence, on a membership that time made past due: a seller on
// a sandbox clock whose buyer's renewal failed off-session (test/memberships/lifecycle-fixtures.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { lifecycleApi } from '../memberships/lifecycle-fixtures.js';
import { generateRecommendations } from '../../handlers/economic_intelligence/generate.js';
import { funded } from '../account_preferences/ei-fixtures.js';

const t = suite('economic intelligence: past-due memberships');
let app: TestApp;
t.before(async () => { app = await startTestApp({ worker: true }); });
t.after(async () => { await app.close(); });

t('a membership whose renewal failed is found, with the tools that recover it', async () => {
  const api = lifecycleApi(app);
  const s = await api.shop();
  // 90 days: still on when the clock reaches the failed renewal, 30 days on; paid from a sale's cleared funds.
  await funded(app, { ...s, now: s.t0 }, 50_000);
  await api.ok(s.key, 'PATCH', `/accounts/${s.accountId}/preferences`, { economic_intelligence_duration_key: 'days_90' });
  const m = await api.membershipIn(s, 'past_due');
  // Run now rather than waiting for the worker's run; the generator writes each recommendation once either way.
  await generateRecommendations(app.db, s.accountId);
  const rows = await app.db('economic_intelligence_recommendations').where({ account_id: s.accountId, kind: 'recover_past_due_memberships' });
  assert.is(rows.length, 1, `past due: ${m.id}`);
  assert.match(rows[0].summary, /^1 membership is past due/);
  assert.equal(rows[0].expected_tool_calls.map((c: any) => c.tool_name), ['listMemberships', 'extendMembership']);
});

t.run();
