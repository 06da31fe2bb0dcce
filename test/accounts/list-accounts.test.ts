import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeKey, makeOwner, makeUser, makeAccount } from '../helpers/fixtures.js';
import { encodeCursor } from '../../runtime/pagination.js';
import { accountAt, accountWithVolume, ids, joinTeam, keyWith, sell } from './support.js';
import { insertPostings } from '../helpers/ledger.js';
import { ownerToken } from '../auth/team.js';

const t = suite('GET /accounts');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });
// Tests speak the head version; user tokens carry no pin and would otherwise get the oldest shape.
const req: TestApp['request'] = (method, path, options = {}) => app.request(method, path, { version: headVersion(), ...options });

/** A platform with an admin API key and `n` connected accounts created one after another after it. */
async function platformWithChildren(n: number) {
  const accountId = await accountAt(app.db, { title: 'Platform' });
  const key = (await makeKey(app.db, { accountId, role: 'admin' })).secret;
  const children: string[] = [];
  for (let i = 1; i <= n; i++) children.push(await accountAt(app.db, { parentId: accountId, title: `Child ${i}` }));
  return { accountId, key, children };
}

// --- who sees what ---------------------------------------------------------------------------------------------

t('an API key lists its own account and its connected accounts, newest first', async () => {
  const p = await platformWithChildren(2);
  const other = await makeOwner(app.db);
  await accountAt(app.db, { parentId: other.accountId });
  const res = await req('GET', '/accounts', { token: p.key });
  assert.is(res.status, 200);
  assert.equal(ids(res), [p.children[1], p.children[0], p.accountId]);
  assert.is(res.body.data[0].parent_account.id, p.accountId);
  assert.is(res.body.data[2].parent_account, null);
  assert.is(res.body.data[0].balance.available.amount, 0);
  assert.equal(res.body.page_info.has_next_page, false);
  assert.equal(res.body.page_info.has_previous_page, false);
});

t('a connected account of a connected account is not listed by the top platform key', async () => {
  const p = await platformWithChildren(1);
  await accountAt(app.db, { parentId: p.children[0] });
  const res = await req('GET', '/accounts', { token: p.key });
  assert.equal(ids(res), [p.children[0], p.accountId]);
});

t('an API key without company:balance:read is a 403', async () => {
  const o = await makeOwner(app.db);
  const key = await keyWith(app.db, o.accountId, ['company:basic:read', 'stats:read']);
  const res = await req('GET', '/accounts', { token: key });
  assert.is(res.status, 403);
  assert.is(res.body.error.type, 'permission_denied');
  assert.match(res.body.error.message, 'company:balance:read');
});

t('a user token lists accounts where the user is an active member holding company:balance:read, with their connected accounts', async () => {
  const user = await makeUser(app.db);
  const owned = await accountAt(app.db, { owner: user });
  const child = await accountAt(app.db, { parentId: owned });
  const viewed = await accountAt(app.db, {});
  const customAll = await accountAt(app.db, {});
  const sales = await accountAt(app.db, {});
  const invited = await accountAt(app.db, {});
  const customBasic = await accountAt(app.db, {});
  await accountAt(app.db, {}); // not a member
  await joinTeam(app, viewed, user, 'viewer');
  await joinTeam(app, customAll, user, 'custom', { permissions: ['company:*'] });
  await joinTeam(app, sales, user, 'sales_manager');
  await joinTeam(app, invited, user, 'admin', { status: 'invited' });
  await joinTeam(app, customBasic, user, 'custom', { permissions: ['company:basic:read'] });
  const res = await req('GET', '/accounts', { token: user.token });
  assert.is(res.status, 200);
  assert.equal(ids(res), [customAll, viewed, child, owned]);
});

t('a connected account is listed for a user whose balance access comes only from the parent', async () => {
  const user = await makeUser(app.db);
  const parent = await accountAt(app.db, {});
  const child = await accountAt(app.db, { parentId: parent });
  await joinTeam(app, parent, user, 'viewer');
  await joinTeam(app, child, user, 'sales_manager');
  const res = await req('GET', '/accounts', { token: user.token });
  assert.equal(ids(res), [child, parent]);
});

t('a user with no memberships gets an empty list', async () => {
  const user = await makeUser(app.db);
  const res = await req('GET', '/accounts', { token: user.token });
  assert.is(res.status, 200);
  assert.equal(res.body.data, []);
  assert.equal(res.body.page_info, { end_cursor: null, start_cursor: null, has_next_page: false, has_previous_page: false });
});

t('no credentials is a 401; a client id is a 403', async () => {
  const none = await req('GET', '/accounts');
  assert.is(none.status, 401);
  assert.is(none.body.error.type, 'authentication_required');
  const o = await makeOwner(app.db);
  const client = await req('GET', '/accounts', { token: o.account.client_id });
  assert.is(client.status, 403);
  assert.is(client.body.error.type, 'permission_denied');
});

// --- pagination ------------------------------------------------------------------------------------------------

t('the default page size is 10 and pages walk forward with after', async () => {
  const p = await platformWithChildren(11); // 12 accounts in all
  const newestFirst = [...p.children].reverse().concat(p.accountId);
  const first = await req('GET', '/accounts', { token: p.key });
  assert.is(first.body.data.length, 10);
  assert.equal(ids(first), newestFirst.slice(0, 10));
  assert.is(first.body.page_info.has_next_page, true);
  assert.is(first.body.page_info.has_previous_page, false);
  const second = await req('GET', '/accounts', { token: p.key, query: { after: first.body.page_info.end_cursor } });
  assert.equal(ids(second), newestFirst.slice(10));
  assert.is(second.body.page_info.has_next_page, false);
  assert.is(second.body.page_info.has_previous_page, true);
});

t('first sets the page size up to 50; 51 and 0 are 400s naming first', async () => {
  const p = await platformWithChildren(3);
  const two = await req('GET', '/accounts', { token: p.key, query: { first: 2 } });
  assert.equal(ids(two), [p.children[2], p.children[1]]);
  const fifty = await req('GET', '/accounts', { token: p.key, query: { first: 50 } });
  assert.is(fifty.status, 200);
  assert.is(fifty.body.data.length, 4);
  for (const first of [51, 0]) {
    const res = await req('GET', '/accounts', { token: p.key, query: { first } });
    assert.is(res.status, 400);
    assert.is(res.body.error.type, 'invalid_request');
    assert.is(res.body.error.param, 'first');
  }
});

t('last counts from the end and before walks backward', async () => {
  const p = await platformWithChildren(4); // newest first: c4 c3 c2 c1 p
  const [c1, c2, c3, c4] = p.children;
  const tail = await req('GET', '/accounts', { token: p.key, query: { last: 2 } });
  assert.equal(ids(tail), [c1, p.accountId]);
  assert.is(tail.body.page_info.has_previous_page, true);
  const before = await req('GET', '/accounts', { token: p.key, query: { last: 2, before: tail.body.page_info.start_cursor } });
  assert.equal(ids(before), [c3, c2]);
  assert.is(before.body.page_info.has_previous_page, true);
  assert.is(before.body.page_info.has_next_page, true);
  const start = await req('GET', '/accounts', { token: p.key, query: { last: 5, before: before.body.page_info.start_cursor } });
  assert.equal(ids(start), [c4]);
  assert.is(start.body.page_info.has_previous_page, false);
});

t('first with last is a 400 naming last', async () => {
  const p = await platformWithChildren(0);
  const res = await req('GET', '/accounts', { token: p.key, query: { first: 2, last: 2 } });
  assert.is(res.status, 400);
  assert.is(res.body.error.type, 'invalid_request');
  assert.is(res.body.error.param, 'last');
});

t('a malformed cursor is a 400 naming the parameter', async () => {
  const p = await platformWithChildren(0);
  for (const param of ['after', 'before']) {
    const res = await req('GET', '/accounts', { token: p.key, query: { [param]: 'not-a-cursor' } });
    assert.is(res.status, 400);
    assert.is(res.body.error.param, param);
  }
});

t('a cursor from another ordering, or a forged one, is a 400 rather than a server error', async () => {
  const p = await platformWithChildren(2);
  const byDate = await req('GET', '/accounts', { token: p.key, query: { first: 1 } });
  const mixed = await req('GET', '/accounts', { token: p.key, query: { order: 'volume', after: byDate.body.page_info.end_cursor } });
  assert.is(mixed.status, 400);
  assert.is(mixed.body.error.param, 'after');
  const forged = await req('GET', '/accounts', { token: p.key, query: { before: encodeCursor('yesterday', 'biz_x') } });
  assert.is(forged.status, 400);
  assert.is(forged.body.error.param, 'before');
  const byVolume = await req('GET', '/accounts', { token: p.key, query: { order: 'volume', first: 1 } });
  const back = await req('GET', '/accounts', { token: p.key, query: { after: byVolume.body.page_info.end_cursor } });
  assert.is(back.status, 400);
});

t('direction=asc lists oldest first and pages the same way', async () => {
  const p = await platformWithChildren(3);
  const first = await req('GET', '/accounts', { token: p.key, query: { direction: 'asc', first: 2 } });
  assert.equal(ids(first), [p.accountId, p.children[0]]);
  const next = await req('GET', '/accounts', { token: p.key, query: { direction: 'asc', first: 2, after: first.body.page_info.end_cursor } });
  assert.equal(ids(next), [p.children[1], p.children[2]]);
  assert.is(next.body.page_info.has_next_page, false);
});

t('accounts created in the same millisecond page without repeats or gaps', async () => {
  const p = await platformWithChildren(0);
  // On a standing sandbox clock every account the platform's key creates is stamped with the clock's one instant.
  const clock = await req('POST', '/sandbox/clocks', { token: p.key, body: { account_id: p.accountId } });
  assert.is(clock.status, 201, JSON.stringify(clock.body));
  const same: string[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await req('POST', '/accounts', { token: p.key, body: { email: `same${i}@example.com`, title: `Same ${i}` } });
    assert.is(res.status, 201, JSON.stringify(res.body));
    assert.is(res.body.created_at, clock.body.frozen_time);
    same.push(res.body.id);
  }
  const seen: string[] = [];
  let after: string | undefined;
  for (;;) {
    const res = await req('GET', '/accounts', { token: p.key, query: { first: 2, after } });
    seen.push(...ids(res));
    if (!res.body.page_info.has_next_page) break;
    after = res.body.page_info.end_cursor;
  }
  assert.equal([...seen].sort(), [...same, p.accountId].sort());
  assert.is(new Set(seen).size, 6);
});

// --- filters ---------------------------------------------------------------------------------------------------

t('status filters active and suspended; active includes accounts not yet in payments review and accounts under review', async () => {
  const p = await platformWithChildren(0);
  const active = await accountAt(app.db, { parentId: p.accountId }); // payments review not started
  const suspended = await accountAt(app.db, { parentId: p.accountId, status: 'suspended' });
  const reviewing = await accountAt(app.db, { parentId: p.accountId });
  const review = await req('POST', `/sandbox/accounts/${reviewing}/compliance_review`, { token: p.key });
  assert.is(review.status, 200, JSON.stringify(review.body));
  const act = await req('GET', '/accounts', { token: p.key, query: { status: 'active' } });
  assert.equal(ids(act), [reviewing, active, p.accountId]);
  const sus = await req('GET', '/accounts', { token: p.key, query: { status: 'suspended' } });
  assert.equal(ids(sus), [suspended]);
  const bad = await req('GET', '/accounts', { token: p.key, query: { status: 'closed' } });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.param, 'status');
});

t('query matches a title substring case-insensitively, or an exact id', async () => {
  const p = await platformWithChildren(0);
  const coffee = await accountAt(app.db, { parentId: p.accountId, title: 'Blue Bottle Coffee' });
  const tea = await accountAt(app.db, { parentId: p.accountId, title: 'Tea House' });
  const byTitle = await req('GET', '/accounts', { token: p.key, query: { query: 'bottle COFF' } });
  assert.equal(ids(byTitle), [coffee]);
  const byId = await req('GET', '/accounts', { token: p.key, query: { query: tea } });
  assert.equal(ids(byId), [tea]);
  const none = await req('GET', '/accounts', { token: p.key, query: { query: 'espresso' } });
  assert.equal(ids(none), []);
});

t('% and _ and backslash in query match literally', async () => {
  const p = await platformWithChildren(0);
  const percent = await accountAt(app.db, { parentId: p.accountId, title: '100% Cotton' });
  await accountAt(app.db, { parentId: p.accountId, title: '100 Cotton' });
  const underscore = await accountAt(app.db, { parentId: p.accountId, title: 'snake_case shop' });
  await accountAt(app.db, { parentId: p.accountId, title: 'snakeXcase shop' });
  const backslash = await accountAt(app.db, { parentId: p.accountId, title: 'back\\slash' });
  const pct = await req('GET', '/accounts', { token: p.key, query: { query: '0%' } });
  assert.equal(ids(pct), [percent]);
  const onlyPct = await req('GET', '/accounts', { token: p.key, query: { query: '%' } });
  assert.equal(ids(onlyPct), [percent]);
  const us = await req('GET', '/accounts', { token: p.key, query: { query: 'e_c' } });
  assert.equal(ids(us), [underscore]);
  const onlyUs = await req('GET', '/accounts', { token: p.key, query: { query: '_' } });
  assert.equal(ids(onlyUs), [underscore]);
  const bs = await req('GET', '/accounts', { token: p.key, query: { query: 'k\\s' } });
  assert.equal(ids(bs), [backslash]);
});

t('query longer than 200 characters is a 400', async () => {
  const p = await platformWithChildren(0);
  const res = await req('GET', '/accounts', { token: p.key, query: { query: 'x'.repeat(201) } });
  assert.is(res.status, 400);
  assert.is(res.body.error.param, 'query');
});

t('created_after and created_before bound the creation time exclusively', async () => {
  const p = await platformWithChildren(4);
  const [c1, c2, c3, c4] = p.children;
  const createdAt = async (id: string) => (await req('GET', `/accounts/${id}`, { token: p.key })).body.created_at as string;
  const res = await req('GET', '/accounts', { token: p.key, query: { created_after: await createdAt(c1), created_before: await createdAt(c4) } });
  assert.equal(ids(res), [c3, c2]);
  const bad = await req('GET', '/accounts', { token: p.key, query: { created_after: '2026-01-01' } });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.param, 'created_after');
});

t('filters combine with pagination', async () => {
  const p = await platformWithChildren(0);
  const matches = [];
  for (let i = 1; i <= 5; i++) {
    matches.push(await accountAt(app.db, { parentId: p.accountId, title: `Match ${i}` }));
    await accountAt(app.db, { parentId: p.accountId, title: `Other ${i}` });
  }
  const page1 = await req('GET', '/accounts', { token: p.key, query: { query: 'match', first: 3 } });
  assert.equal(ids(page1), [matches[4], matches[3], matches[2]]);
  const page2 = await req('GET', '/accounts', { token: p.key, query: { query: 'match', first: 3, after: page1.body.page_info.end_cursor } });
  assert.equal(ids(page2), [matches[1], matches[0]]);
  assert.is(page2.body.page_info.has_next_page, false);
});

t('unknown query parameters are a 400 naming them', async () => {
  const p = await platformWithChildren(0);
  const res = await req('GET', '/accounts', { token: p.key, query: { company_id: p.accountId } });
  assert.is(res.status, 400);
  assert.is(res.body.error.param, 'company_id');
});

// --- parent_account_id -----------------------------------------------------------------------------------------

t('parent_account_id returns that parent\'s direct connected accounts only', async () => {
  const p = await platformWithChildren(2);
  await accountAt(app.db, { parentId: p.children[0] }); // grandchild
  const res = await req('GET', '/accounts', { token: p.key, query: { parent_account_id: p.accountId } });
  assert.is(res.status, 200);
  assert.equal(ids(res), [p.children[1], p.children[0]]);
});

t('parent_account_id needs payout:account:read on the parent (403)', async () => {
  const p = await platformWithChildren(1);
  const key = await keyWith(app.db, p.accountId, ['company:balance:read']);
  const res = await req('GET', '/accounts', { token: key, query: { parent_account_id: p.accountId } });
  assert.is(res.status, 403);
  assert.is(res.body.error.type, 'permission_denied');
  assert.match(res.body.error.message, 'payout:account:read');
  const allowed = await keyWith(app.db, p.accountId, ['company:balance:read', 'payout:account:read']);
  const ok = await req('GET', '/accounts', { token: allowed, query: { parent_account_id: p.accountId } });
  assert.equal(ids(ok), [p.children[0]]);
});

t('a parent_account_id the caller cannot see is a 404 naming it', async () => {
  const p = await platformWithChildren(0);
  const other = await makeOwner(app.db);
  const res = await req('GET', '/accounts', { token: p.key, query: { parent_account_id: other.accountId } });
  assert.is(res.status, 404);
  assert.is(res.body.error.type, 'not_found');
  assert.is(res.body.error.param, 'parent_account_id');
  const missing = await req('GET', '/accounts', { token: p.key, query: { parent_account_id: 'biz_nosuchaccount' } });
  assert.is(missing.status, 404);
  const malformed = await req('GET', '/accounts', { token: p.key, query: { parent_account_id: 'user_abc' } });
  assert.is(malformed.status, 400);
  assert.is(malformed.body.error.param, 'parent_account_id');
});

t('parent_account_id with a user token follows the user\'s role on the parent', async () => {
  const admin = await makeUser(app.db);
  const viewer = await makeUser(app.db);
  const parent = await accountAt(app.db, {});
  const child = await accountAt(app.db, { parentId: parent });
  await joinTeam(app, parent, admin, 'admin');
  await joinTeam(app, parent, viewer, 'viewer');
  const ok = await req('GET', '/accounts', { token: admin.token, query: { parent_account_id: parent } });
  assert.equal(ids(ok), [child]);
  const denied = await req('GET', '/accounts', { token: viewer.token, query: { parent_account_id: parent } });
  assert.is(denied.status, 403);
  const stranger = await makeUser(app.db);
  const hidden = await req('GET', '/accounts', { token: stranger.token, query: { parent_account_id: parent } });
  assert.is(hidden.status, 404);
});

// --- volume ----------------------------------------------------------------------------------------------------

t('order=volume sorts by lifetime volume, ties broken by id, and pages by (volume, id)', async () => {
  const p = await platformWithChildren(0);
  await sell(app, p.accountId, 50);
  const big = await accountWithVolume(app, { parentId: p.accountId, volume: 900_00 });
  const tieA = await accountWithVolume(app, { parentId: p.accountId, volume: 300_00 });
  const tieB = await accountWithVolume(app, { parentId: p.accountId, volume: 300_00 });
  const small = await accountWithVolume(app, { parentId: p.accountId, volume: 1_00 });
  const ties = [tieA, tieB].sort().reverse();
  const expected = [big, ...ties, small, p.accountId];
  const all = await req('GET', '/accounts', { token: p.key, query: { order: 'volume' } });
  assert.is(all.status, 200);
  assert.equal(ids(all), expected);
  const walked: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await req('GET', '/accounts', { token: p.key, query: { order: 'volume', first: 2, after } });
    walked.push(...ids(page));
    if (!page.body.page_info.has_next_page) break;
    after = page.body.page_info.end_cursor;
  }
  assert.equal(walked, expected);
  const asc = await req('GET', '/accounts', { token: p.key, query: { order: 'volume', direction: 'asc' } });
  assert.equal(ids(asc), [...expected].reverse());
  const tail = await req('GET', '/accounts', { token: p.key, query: { order: 'volume', last: 2 } });
  assert.equal(ids(tail), [small, p.accountId]);
});

t('volume_min and volume_max are inclusive dollar bounds on a cents column, exact for fractional dollars', async () => {
  const p = await platformWithChildren(0);
  const c28 = await accountWithVolume(app, { parentId: p.accountId, volume: 28 });
  const c29 = await accountWithVolume(app, { parentId: p.accountId, volume: 29 });
  const c30 = await accountWithVolume(app, { parentId: p.accountId, volume: 30 });
  const d1000 = await accountWithVolume(app, { parentId: p.accountId, volume: 1000_00 });
  const max = await req('GET', '/accounts', { token: p.key, query: { volume_max: 0.29, parent_account_id: p.accountId } });
  assert.equal(ids(max), [c29, c28]);
  const min = await req('GET', '/accounts', { token: p.key, query: { volume_min: 0.29, parent_account_id: p.accountId } });
  assert.equal(ids(min), [d1000, c30, c29]);
  const range = await req('GET', '/accounts', { token: p.key, query: { volume_min: 0.3, volume_max: 1000 } });
  assert.equal(ids(range), [d1000, c30]);
  const negative = await req('GET', '/accounts', { token: p.key, query: { volume_min: -1 } });
  assert.is(negative.status, 400);
  assert.is(negative.body.error.param, 'volume_min');
  const text = await req('GET', '/accounts', { token: p.key, query: { volume_max: 'lots' } });
  assert.is(text.status, 400);
  assert.is(text.body.error.param, 'volume_max');
});

t('an API key needs stats:read for order=volume, volume_min and volume_max (403)', async () => {
  const p = await platformWithChildren(1);
  const key = await keyWith(app.db, p.accountId, ['company:balance:read', 'payout:account:read']);
  for (const query of [{ order: 'volume' }, { volume_min: 1 }, { volume_max: 1 }, { order: 'volume', parent_account_id: p.accountId }]) {
    const res = await req('GET', '/accounts', { token: key, query });
    assert.is(res.status, 403, JSON.stringify(query));
    assert.is(res.body.error.type, 'permission_denied');
    assert.match(res.body.error.message, 'stats:read');
  }
  const plain = await req('GET', '/accounts', { token: key, query: { order: 'created_at' } });
  assert.is(plain.status, 200);
  const withStats = await keyWith(app.db, p.accountId, ['company:balance:read', 'stats:read']);
  const ok = await req('GET', '/accounts', { token: withStats, query: { order: 'volume', volume_min: 0 } });
  assert.is(ok.status, 200);
  assert.is(ok.body.data.length, 2);
});

t('a user token without parent_account_id needs stats:read on every account the other filters match', async () => {
  const user = await makeUser(app.db);
  const statsAcct = await accountWithVolume(app, { title: 'Stats Co', volume: 5_00 });
  const viewerAcct = await accountWithVolume(app, { title: 'Viewer Co', volume: 7_00 });
  await joinTeam(app, statsAcct, user, 'moderator'); // moderator holds stats:read
  const viewerMember = await joinTeam(app, viewerAcct, user, 'viewer'); // viewer does not
  const denied = await req('GET', '/accounts', { token: user.token, query: { order: 'volume' } });
  assert.is(denied.status, 403);
  assert.match(denied.body.error.message, viewerAcct);
  const boundDenied = await req('GET', '/accounts', { token: user.token, query: { volume_min: 1 } });
  assert.is(boundDenied.status, 403);
  const narrowed = await req('GET', '/accounts', { token: user.token, query: { order: 'volume', query: 'stats' } });
  assert.is(narrowed.status, 200);
  assert.equal(ids(narrowed), [statsAcct]);
  const promoted = await req('PATCH', `/team_members/${viewerMember}`, { token: await ownerToken(app.db, viewerAcct), body: { role: 'moderator' } });
  assert.is(promoted.status, 200, JSON.stringify(promoted.body));
  const all = await req('GET', '/accounts', { token: user.token, query: { order: 'volume' } });
  assert.equal(ids(all), [viewerAcct, statsAcct]);
});

t('a user token with parent_account_id needs stats:read on that parent only', async () => {
  const user = await makeUser(app.db);
  const parent = await accountAt(app.db, {});
  const low = await accountWithVolume(app, { parentId: parent, volume: 1_00 });
  const high = await accountWithVolume(app, { parentId: parent, volume: 2_00 });
  const elsewhere = await accountAt(app.db, {});
  const member = await joinTeam(app, parent, user, 'custom', { permissions: ['company:balance:read', 'payout:account:read'] });
  await joinTeam(app, elsewhere, user, 'viewer');
  const denied = await req('GET', '/accounts', { token: user.token, query: { order: 'volume', parent_account_id: parent } });
  assert.is(denied.status, 403);
  const granted = await req('PATCH', `/team_members/${member}`, {
    token: await ownerToken(app.db, parent), body: { permissions: ['company:balance:read', 'payout:account:read', 'stats:read'] },
  });
  assert.is(granted.status, 200, JSON.stringify(granted.body));
  const ok = await req('GET', '/accounts', { token: user.token, query: { order: 'volume', parent_account_id: parent } });
  assert.is(ok.status, 200);
  assert.equal(ids(ok), [high, low]);
});

t('rewards on listed accounts reflect lifetime volume', async () => {
  const p = await platformWithChildren(0);
  const child = await accountWithVolume(app, { parentId: p.accountId, volume: 2_000_000 });
  const res = await req('GET', '/accounts', { token: p.key, query: { parent_account_id: p.accountId } });
  const row = res.body.data.find((a: { id: string }) => a.id === child);
  assert.equal(row.rewards.map((r: any) => [r.id, r.qualified, r.payout_status]),
    [['rwd_10k', true, 'paid'], ['rwd_100k', false, 'not_qualified'], ['rwd_1m', false, 'not_qualified']]);
  assert.is(row.economic_intelligence_offers.length, 4);
});

t('a listed account shows its ledger balance buckets', async () => {
  const p = await platformWithChildren(0);
  const child = await makeAccount(app.db, { parentId: p.accountId });
  await insertPostings(app.db, [
    { entry_id: 'e1', account_id: child.id, bucket: 'available', currency: 'usd', amount: 1500 },
    { entry_id: 'e1', account_id: child.id, bucket: 'pending', currency: 'usd', amount: 250 },
    { entry_id: 'e1', account_id: child.id, bucket: 'processor_clearing', currency: 'usd', amount: -1750 },
    { entry_id: 'e2', account_id: child.id, bucket: 'in_transit', currency: 'usd', amount: 75 },
    { entry_id: 'e2', account_id: child.id, bucket: 'processor_clearing', currency: 'usd', amount: -75 },
    { entry_id: 'e3', account_id: p.accountId, bucket: 'available', currency: 'usd', amount: 9 },
    { entry_id: 'e3', account_id: p.accountId, bucket: 'processor_clearing', currency: 'usd', amount: -9 },
  ]);
  const res = await req('GET', '/accounts', { token: p.key, query: { query: child.id } });
  const b = res.body.data[0].balance;
  assert.equal([b.available.amount, b.pending.amount, b.in_transit.amount], [1500, 250, 75]);
});

t('offers are only the pickable ones at the head version; pins before that flag see every offer', async () => {
  const p = await platformWithChildren(0);
  const busy = await accountAt(app.db, { parentId: p.accountId });
  // Economic Intelligence turned on (its first weekly period, the free trial): no offer is pickable until it ends.
  const on = await req('PATCH', `/accounts/${busy}/preferences`, { token: p.key, body: { economic_intelligence_duration_key: 'weekly' } });
  assert.is(on.status, 200, JSON.stringify(on.body));
  const head = await req('GET', '/accounts', { token: p.key, query: { query: busy } });
  assert.equal(head.body.data[0].economic_intelligence_offers, []);
  const old = await req('GET', '/accounts', { token: p.key, query: { query: busy }, version: '2026-08-28' });
  assert.is(old.status, 200);
  assert.ok(old.body.data[0].economic_intelligence_offers.length > 0);
});

t.run();
