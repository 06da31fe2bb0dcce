// Implemented changelog entries on setup intents (22) and memberships and members (53), before and after each:
// endpoints that did not exist natively, and the older payload shapes webhooks of older pins still receive.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { makeConfirmationToken, makeMembership } from '../memberships/fixtures.js';
import { renderAt } from '../../runtime/render.js';

const t = suite('versioning: setup intents, memberships and members');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('#22 native setup intents exist from 2026-08-25; older pins receive the embedded-reference payload', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const ctok = await makeConfirmationToken(app.db, o.accountId);
  const body = { account_id: o.accountId, confirmation_token: ctok, user_id: buyer.id };
  const before = await app.request('POST', '/setup_intents', { token: o.key, version: '2026-08-21', body });
  assert.is(before.status, 404);
  const created = await app.request('POST', '/setup_intents', { token: o.key, version: '2026-08-25', body });
  assert.is(created.status, 201, JSON.stringify(created.body));
  // At 2026-08-25 (before entry 13's flag) the method is saved during the request.
  assert.is(created.body.status, 'succeeded');
  assert.is((await app.request('GET', `/setup_intents/${created.body.id}`, { token: o.key, version: '2026-08-21' })).status, 404);
  const old = renderAt('SetupIntent', created.body, '2026-08-21') as any;
  assert.equal(old.payment_method, { id: created.body.payment_method_id });
  assert.equal(old.member, { id: created.body.member_id });
  for (const gone of ['member_id', 'payment_method_id', 'last_setup_error']) assert.not.ok(gone in old, gone);
  assert.is(renderAt('SetupIntent', created.body, '2026-08-25'), created.body);
});

t('#53 native memberships and members exist from 2026-07-23; older pins see no cancel_at_period_end', async () => {
  const o = await makeOwner(app.db);
  const buyer = await makeUser(app.db);
  const m = await makeMembership(app.db, o.accountId, buyer.id);
  const at = (version: string, path: string) => app.request('GET', path, { token: o.key, version });
  const now = await at('2026-07-23', `/memberships/${m.id}`);
  assert.is(now.status, 200);
  assert.is(now.body.cancel_at_period_end, false);
  assert.is((await at('2026-07-20', `/memberships/${m.id}`)).status, 404);
  assert.is((await at('2026-07-20', '/memberships')).status, 404);
  assert.is((await at('2026-07-20', `/members/${m.memberId}`)).status, 404);
  assert.is((await at('2026-07-23', `/members/${m.memberId}`)).status, 200);
  const cancel = await app.request('POST', `/memberships/${m.id}/cancel`, { token: o.key, version: '2026-07-20', body: {} });
  assert.is(cancel.status, 404);
  assert.not.ok('cancel_at_period_end' in (renderAt('Membership', now.body, '2026-07-20') as any));
});

t.run();
