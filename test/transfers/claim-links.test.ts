// Claim links and invites: held funds, claims (exactly once, under concurrency), expiry by the background job,
// cancellation, and their rules and errors over HTTP.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { until } from '../helpers/poll.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { expireClaimLink } from '../../handlers/transfers/claim-links.js';
import { availableOf, claim, codeOf, heldOf, keyWithRole, makeBusiness, makeWalletUser, transfer, usd, VERSION } from './transfer-fixtures.js';

const t = suite('transfers: claim links');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const get = (token: string, id: string) => app.request('GET', `/transfers/${id}`, { token, version: VERSION });
/** Lets time pass the link's expiry for its sender: the sender's account goes on a sandbox clock standing a second
 * after it (the link is judged by its sender's time, handlers/transfers/claim-links.ts). */
async function pastExpiry(key: string, accountId: string, expiresAt: string) {
  const clock = await app.request('POST', '/sandbox/clocks', {
    token: key, version: VERSION, body: { account_id: accountId, frozen_time: new Date(Date.parse(expiresAt) + 1_000).toISOString() },
  });
  assert.is(clock.status, 201, JSON.stringify(clock.body));
}

t('a claim link holds its shares with their fees; a claim moves one share into the claimant\'s wallet', async () => {
  const shop = await makeBusiness(app, 10_000, 'Giveaway Shop');
  const link = await transfer(app, shop.key, { type: 'claim_link', origin_id: shop.accountId, amount: 1_000, redeemable_count: 3 });
  assert.is(link.type, 'claim_link');
  assert.is(link.status, 'pending');
  assert.equal(link.amount, usd(1_000));
  assert.equal(link.fee, usd(10));
  assert.is(link.destination, null);
  assert.is(link.destination_ledger_account_id, null);
  assert.is(link.redeemable_count, 3);
  assert.is(link.claimed_count, 0);
  assert.match(link.claim_url, /\/claim\/[A-Za-z0-9]{32}$/);
  const expires = Date.parse(link.expires_at) - Date.parse(link.created_at);
  assert.ok(Math.abs(expires - 30 * 86_400_000) < 60_000, 'expires 30 days on by default');
  assert.is(await availableOf(app.db, shop.accountId), 10_000 - 3 * 1_010);
  assert.is(await heldOf(app.db, shop.accountId), 3 * 1_010);

  const ann = await makeWalletUser(app, 0, 'Ann');
  const res = await claim(app, ann.token, link.id, codeOf(link));
  assert.is(res.status, 200, JSON.stringify(res.body));
  const c = res.body;
  assert.match(c.id, /^xfer_/);
  assert.is(c.type, 'balance');
  assert.is(c.status, 'completed');
  assert.is(c.claim_link_id, link.id);
  assert.is(c.origin.id, shop.accountId);
  assert.is(c.destination.id, ann.id);
  assert.equal(c.amount, usd(1_000));
  assert.equal(c.fee, usd(10));
  assert.is(await availableOf(app.db, ann.id), 1_000);
  assert.is(await heldOf(app.db, shop.accountId), 2 * 1_010);
  const after = (await get(shop.key, link.id)).body;
  assert.is(after.status, 'pending');
  assert.is(after.claimed_count, 1);
  assert.is((await get(ann.token, c.id)).status, 200, 'the claimant reads their claim');
  assert.is((await get(ann.token, link.id)).status, 404, 'but not the link');
  const event = await app.db('events').where({ type: 'transfer.claimed', account_id: shop.accountId }).whereRaw("data->>'id' = ?", [link.id]).first();
  assert.is(event.data.claimed_count, 1);
});

t('each user claims a link once (409); the last share ends it claimed; a claimed link is invalid_state', async () => {
  const shop = await makeBusiness(app, 10_000);
  const link = await transfer(app, shop.key, { type: 'claim_link', origin_id: shop.accountId, amount: 500, redeemable_count: 2 });
  const [ann, ben, cat] = [await makeWalletUser(app), await makeWalletUser(app), await makeWalletUser(app)];
  assert.is((await claim(app, ann.token, link.id, codeOf(link))).status, 200);
  const twice = await claim(app, ann.token, link.id, codeOf(link));
  assert.is(twice.status, 409);
  assert.is(twice.body.error.type, 'conflict');
  assert.is((await claim(app, ben.token, link.id, codeOf(link))).status, 200);
  const done = (await get(shop.key, link.id)).body;
  assert.is(done.status, 'claimed');
  assert.is(done.claimed_count, 2);
  assert.is(await heldOf(app.db, shop.accountId), 0);
  const late = await claim(app, cat.token, link.id, codeOf(link));
  assert.is(late.status, 400);
  assert.is(late.body.error.type, 'invalid_state');
  assert.is(late.body.error.param, 'status');
  assert.is(await availableOf(app.db, cat.id), 0);
});

t('concurrent claims of a single-share link: exactly one wins, the wallet is credited once', async () => {
  const shop = await makeBusiness(app, 10_000);
  const link = await transfer(app, shop.key, { type: 'claim_link', origin_id: shop.accountId, amount: 700 });
  const users = await Promise.all(Array.from({ length: 10 }, () => makeWalletUser(app)));
  const results = await Promise.all(users.map((u) => claim(app, u.token, link.id, codeOf(link))));
  const winners = results.filter((r) => r.status === 200);
  assert.is(winners.length, 1, JSON.stringify(results.map((r) => r.status)));
  assert.ok(results.filter((r) => r.status !== 200).every((r) => r.status === 400 && r.body.error.type === 'invalid_state'));
  const balances = await Promise.all(users.map((u) => availableOf(app.db, u.id)));
  assert.equal(balances.filter((b) => b > 0), [700]);
  assert.is(await heldOf(app.db, shop.accountId), 0);
  // The same user racing themself gets one share too.
  const link2 = await transfer(app, shop.key, { type: 'claim_link', origin_id: shop.accountId, amount: 100, redeemable_count: 5 });
  const dan = await makeWalletUser(app);
  const own = await Promise.all(Array.from({ length: 6 }, () => claim(app, dan.token, link2.id, codeOf(link2))));
  assert.is(own.filter((r) => r.status === 200).length, 1);
  assert.is(await availableOf(app.db, dan.id), 100);
  const report = await verifyLedger(app.db);
  assert.equal(report.mismatches, []);
  assert.equal(report.unbalancedEntries, []);
});

t('the code: missing is a 400 naming it, wrong is a 404; API keys cannot claim', async () => {
  const shop = await makeBusiness(app, 10_000);
  const link = await transfer(app, shop.key, { type: 'claim_link', origin_id: shop.accountId, amount: 100 });
  const ann = await makeWalletUser(app);
  const missing = await claim(app, ann.token, link.id);
  assert.is(missing.status, 400);
  assert.is(missing.body.error.param, 'code');
  const wrong = await claim(app, ann.token, link.id, 'A'.repeat(32));
  assert.is(wrong.status, 404);
  const malformed = await claim(app, ann.token, link.id, 'short');
  assert.is(malformed.status, 400);
  assert.is(malformed.body.error.param, 'code');
  const byKey = await claim(app, shop.key, link.id, codeOf(link));
  assert.is(byKey.status, 403);
  const notALink = await transfer(app, shop.key, { type: 'balance', origin_id: shop.accountId, destination_id: ann.id, amount: 100 });
  assert.is((await claim(app, ann.token, notALink.id, codeOf(link))).status, 404);
  assert.is((await claim(app, ann.token, 'xfer_nope', codeOf(link))).status, 404);
});

t('an invite: only its user claims it, without a code; they are notified, and it shows them as destination', async () => {
  const shop = await makeBusiness(app, 10_000);
  const ann = await makeWalletUser(app, 0, 'Ann Invitee');
  const ben = await makeWalletUser(app);
  const invite = await transfer(app, shop.key, { type: 'claim_link', origin_id: shop.accountId, destination_id: ann.id, amount: 300 });
  assert.is(invite.destination.id, ann.id);
  assert.is(invite.destination.name, 'Ann Invitee');
  const note = await app.db('notifications').where({ user_id: ann.id, type: 'transfer_invitation' }).first();
  assert.is(note.data.transfer_id, invite.id);
  assert.is(note.read_at, null);
  assert.is((await get(ann.token, invite.id)).status, 200, 'the invited user reads it');
  assert.is((await claim(app, ben.token, invite.id, codeOf(invite))).status, 404, 'nobody else, even with the code');
  const res = await claim(app, ann.token, invite.id);
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(await availableOf(app.db, ann.id), 300);
  assert.is((await get(shop.key, invite.id)).body.status, 'claimed');
  assert.ok((await app.db('notifications').where({ id: note.id }).first()).read_at, 'the notification is read');
  const badInvite = await app.request('POST', '/transfers', { token: shop.key, version: VERSION, body: { type: 'claim_link', origin_id: shop.accountId, destination_id: shop.accountId, amount: 1 } });
  assert.is(badInvite.status, 400);
  assert.is(badInvite.body.error.param, 'destination_id');
  const manyShares = await app.request('POST', '/transfers', { token: shop.key, version: VERSION, body: { type: 'claim_link', origin_id: shop.accountId, destination_id: ann.id, amount: 1, redeemable_count: 2 } });
  assert.is(manyShares.status, 400);
  assert.is(manyShares.body.error.param, 'redeemable_count');
});

t('expiry: the job returns what is still held, once; a late claim is invalid_state', async () => {
  const shop = await makeBusiness(app, 10_000);
  const link = await transfer(app, shop.key, { type: 'claim_link', origin_id: shop.accountId, amount: 1_000, redeemable_count: 3, expires_at: inDays(1) });
  const job = await app.db('graphile_worker.jobs').where({ key: `expire_claim_link:${link.id}` }).first();
  assert.ok(job, 'the expiry job is queued');
  assert.is(new Date(job.run_at).toISOString(), link.expires_at);
  const ann = await makeWalletUser(app);
  assert.is((await claim(app, ann.token, link.id, codeOf(link))).status, 200);
  await expireClaimLink(app.db, link.id);
  assert.is((await get(shop.key, link.id)).body.status, 'pending', 'an early run changes nothing');
  await pastExpiry(shop.key, shop.accountId, link.expires_at);
  const late = await claim(app, (await makeWalletUser(app)).token, link.id, codeOf(link));
  assert.is(late.status, 400);
  assert.is(late.body.error.type, 'invalid_state');
  await expireClaimLink(app.db, link.id);
  await expireClaimLink(app.db, link.id);
  const expired = (await get(shop.key, link.id)).body;
  assert.is(expired.status, 'expired');
  assert.ok(expired.failed_at);
  assert.ok(expired.funds_returned_at);
  assert.is(await heldOf(app.db, shop.accountId), 0);
  assert.is(await availableOf(app.db, shop.accountId), 10_000 - 1_010, 'two unclaimed shares and their fees came back');
  const returned = await app.db('ledger_postings').where({ entry_id: `${link.id}:returned` });
  assert.ok(returned.length > 0);
  assert.is(returned.reduce((n, p) => n + Number(p.amount), 0), 0);
  assert.is((await app.db('events').where({ type: 'transfer.expired' }).whereRaw("data->>'id' = ?", [link.id])).length, 1);
});

t('expiry by the worker: a link past expires_at is expired by the running background job', async () => {
  const worker = await startTestApp({ worker: true });
  try {
    const shop = await makeBusiness(worker, 5_000);
    const link = await transfer(worker, shop.key, { type: 'claim_link', origin_id: shop.accountId, amount: 1_000, expires_at: new Date(Date.now() + 1_500).toISOString() });
    await until(async () => (await worker.db('transfers').where({ id: link.id }).first()).status === 'expired', 'the link to expire', { timeoutMs: 20_000 });
    assert.is(await availableOf(worker.db, shop.accountId), 5_000);
  } finally {
    await worker.close();
  }
});

t('expires_at: in the future, at most 365 days ahead; redeemable_count 1 to 100', async () => {
  const shop = await makeBusiness(app, 10_000);
  const bad: [Record<string, unknown>, string][] = [
    [{ expires_at: new Date(Date.now() - 1000).toISOString() }, 'expires_at'],
    [{ expires_at: inDays(366) }, 'expires_at'],
    [{ expires_at: '2030-01-01' }, 'expires_at'],
    [{ redeemable_count: 0 }, 'redeemable_count'],
    [{ redeemable_count: 101 }, 'redeemable_count'],
  ];
  for (const [extra, param] of bad) {
    const res = await app.request('POST', '/transfers', { token: shop.key, version: VERSION, body: { type: 'claim_link', origin_id: shop.accountId, amount: 100, ...extra } });
    assert.is(res.status, 400, JSON.stringify(extra));
    assert.is(res.body.error.param, param);
  }
  const short = await app.request('POST', '/transfers', { token: shop.key, version: VERSION, body: { type: 'claim_link', origin_id: shop.accountId, amount: 5_000, redeemable_count: 2 } });
  assert.is(short.status, 400, 'two shares of 50.50 are more than 100.00');
  assert.is(short.body.error.type, 'insufficient_funds');
});

t('cancel: the origin gets back what is held at once; others cannot; a balance transfer or an ended link is invalid_state', async () => {
  const alice = await makeWalletUser(app, 3_000);
  const link = await transfer(app, alice.token, { type: 'claim_link', origin_id: alice.id, amount: 1_000, redeemable_count: 2 });
  assert.is(await availableOf(app.db, alice.id), 3_000 - 2_020);
  const ben = await makeWalletUser(app);
  assert.is((await claim(app, ben.token, link.id, codeOf(link))).status, 200);
  const stranger = await makeWalletUser(app);
  assert.is((await app.request('POST', `/transfers/${link.id}/cancel`, { token: stranger.token, version: VERSION })).status, 404);
  const res = await app.request('POST', `/transfers/${link.id}/cancel`, { token: alice.token, version: VERSION });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.is(res.body.status, 'canceled');
  assert.ok(res.body.funds_returned_at);
  assert.is(await availableOf(app.db, alice.id), 3_000 - 1_010);
  assert.is(await heldOf(app.db, alice.id), 0);
  const again = await app.request('POST', `/transfers/${link.id}/cancel`, { token: alice.token, version: VERSION });
  assert.is(again.status, 400);
  assert.is(again.body.error.type, 'invalid_state');
  // The expiry job, when it comes, finds the link ended (it checks the status before the time).
  await expireClaimLink(app.db, link.id);
  assert.is(await availableOf(app.db, alice.id), 3_000 - 1_010, 'the expiry job finds it ended and returns nothing twice');
  const shop = await makeBusiness(app, 1_000);
  const plain = await transfer(app, shop.key, { type: 'balance', origin_id: shop.accountId, destination_id: alice.id, amount: 100 });
  const notLink = await app.request('POST', `/transfers/${plain.id}/cancel`, { token: shop.key, version: VERSION });
  assert.is(notLink.status, 400);
  assert.is(notLink.body.error.type, 'invalid_state');
  const shopLink = await transfer(app, shop.key, { type: 'claim_link', origin_id: shop.accountId, amount: 100 });
  const viewer = await keyWithRole(app.db, shop.accountId, 'viewer');
  assert.is((await app.request('POST', `/transfers/${shopLink.id}/cancel`, { token: viewer, version: VERSION })).status, 403);
});

t('the claim page and the tracking page need no credentials and say what the link holds', async () => {
  const shop = await makeBusiness(app, 10_000, 'Page Shop');
  const link = await transfer(app, shop.key, { type: 'claim_link', origin_id: shop.accountId, amount: 1_234, redeemable_count: 2 });
  const claimPage = await fetch(link.claim_url.replace(/^https?:\/\/[^/]+/, app.url.replace('/api/v1', '')));
  assert.is(claimPage.status, 200);
  const html = await claimPage.text();
  assert.match(html, /Page Shop sent you money/);
  assert.match(html, /12\.34 USD/);
  assert.match(html, new RegExp(`/api/v1/transfers/${link.id}/claim`));
  const tracking = await fetch(link.tracking_url.replace(/^https?:\/\/[^/]+/, app.url.replace('/api/v1', '')));
  assert.is(tracking.status, 200);
  const text = await tracking.text();
  assert.match(text, /pending/);
  assert.match(text, /0 of 2/);
  assert.is((await fetch(`${app.url.replace('/api/v1', '')}/claim/${'B'.repeat(32)}`)).status, 404);
  assert.is((await fetch(`${app.url.replace('/api/v1', '')}/transfers/track/nope`)).status, 404);
});

t.run();
