// Audiences at older pins: before 2026-08-28 (entry 11) engagement rules named social_account_id; before
// 2026-08-25 (entry 30) there were no engagement audiences and the type was audience_type custom or lookalike.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { VERSION } from '../payments/payment-fixtures.js';
import { ensureMember } from '../../handlers/members/member-service.js';
import { connectedAccount } from '../external_accounts/external-account-fixtures.js';
import { buildQueued } from './audience-fixtures.js';

const BEFORE_11 = '2026-08-25';
const BEFORE_30 = '2026-08-21';
const t = suite('audience versions');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const create = (token: string, body: Record<string, unknown>, version: string) =>
  app.request('POST', '/audiences', { token, version, body });
const get = (token: string, path: string, version: string, query?: Record<string, string>) =>
  app.request('GET', path, { token, version, query });

t(`before entry 11 (${BEFORE_11}): engagement rules name social_account_id, both ways`, async () => {
  const o = await makeOwner(app.db);
  const page = await connectedAccount(app, o.key, o.accountId, { platform: 'facebook' });
  const res = await create(o.key, { account_id: o.accountId, name: 'Older', source_type: 'engagement',
    engagement: { rules: [{ source: 'pages', social_account_id: page.id, retention_days: 365 }] } }, BEFORE_11);
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.engagement.rules, [{ source: 'pages', social_account_id: page.id, post_ids: null, retention_days: 365 }]);
  assert.ok(res.body.size > 0);
  const headName = await create(o.key, { account_id: o.accountId, name: 'x', source_type: 'engagement',
    engagement: { rules: [{ source: 'pages', external_account_id: page.id }] } }, BEFORE_11);
  assert.is(headName.status, 400, JSON.stringify(headName.body));
  const head = await get(o.key, `/audiences/${res.body.id}`, VERSION);
  assert.equal(head.body.engagement.rules[0].external_account_id, page.id);
  assert.is(head.body.engagement.rules[0].social_account_id, undefined);
});

t(`before entry 30 (${BEFORE_30}): audience_type custom or lookalike, no engagement`, async () => {
  const o = await makeOwner(app.db);
  await ensureMember(app.db, o.accountId, (await makeUser(app.db)).id);
  await ensureMember(app.db, o.accountId, (await makeUser(app.db)).id);
  const custom = await create(o.key, { account_id: o.accountId, name: 'Members', audience_type: 'custom' }, BEFORE_30);
  assert.is(custom.status, 201, JSON.stringify(custom.body));
  assert.equal([custom.body.audience_type, custom.body.size, custom.body.source_type, 'engagement' in custom.body],
    ['custom', 2, undefined, false]);
  await buildQueued(app, custom.body.id);
  const like = await create(o.key, { account_id: o.accountId, name: 'Like', audience_type: 'lookalike',
    source_audience_id: custom.body.id, lookalike_ratio: 2 }, BEFORE_30);
  assert.equal([like.status, like.body.audience_type, like.body.size], [201, 'lookalike', 400]);
  // The head's names and engagement are not taken at that pin.
  const engagement = await create(o.key, { account_id: o.accountId, name: 'x', audience_type: 'custom', engagement: { rules: [] } }, BEFORE_30);
  assert.equal([engagement.status, engagement.body.error.param], [400, 'engagement']);
  const headType = await create(o.key, { account_id: o.accountId, name: 'x', source_type: 'customer_list' }, BEFORE_30);
  assert.is(headType.status, 400);
  const headValue = await create(o.key, { account_id: o.accountId, name: 'x', audience_type: 'customer_list' }, BEFORE_30);
  assert.equal([headValue.status, headValue.body.error.param], [400, 'audience_type']);

  // An engagement audience made at the head shows as custom at the older pin, and the custom filter finds it.
  const page = await connectedAccount(app, o.key, o.accountId, { platform: 'facebook' });
  const engaged = (await create(o.key, { account_id: o.accountId, name: 'Engaged', source_type: 'engagement',
    engagement: { rules: [{ source: 'pages', external_account_id: page.id }] } }, VERSION)).body;
  const older = await get(o.key, `/audiences/${engaged.id}`, BEFORE_30);
  assert.equal([older.body.audience_type, 'engagement' in older.body], ['custom', false]);
  const customs = await get(o.key, '/audiences', BEFORE_30, { account_id: o.accountId, audience_type: 'custom' });
  assert.is(customs.status, 200, JSON.stringify(customs.body));
  assert.equal(customs.body.data.map((a: any) => a.id), [engaged.id, custom.body.id]);
  const lookalikes = await get(o.key, '/audiences', BEFORE_30, { account_id: o.accountId, audience_type: 'lookalike' });
  assert.equal(lookalikes.body.data.map((a: any) => a.id), [like.body.id]);
  // At the head the same rows answer with source_type.
  const head = await get(o.key, '/audiences', VERSION, { account_id: o.accountId, source_type: 'customer_list' });
  assert.equal(head.body.data.map((a: any) => [a.id, a.source_type]), [[custom.body.id, 'customer_list']]);
});

t.run();
