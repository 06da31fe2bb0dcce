// The upgrade workbench's pin moves (spec/areas/api_keys.yaml moveApiKeyPin, rollbackApiKeyPin): a key's pin moves
// with a way back for 72 hours of the account's time, every move an event delivered to subscriptions, and the key's
// requests follow the pin at once. All through HTTP and the worker; the window is closed by a sandbox clock.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

const HEAD = '2026-09-06';
const OLD = '2026-08-14';
const HOUR = 3_600_000;
const t = suite('POST /api_keys/{id}/move_pin and /rollback_pin');
let app: TestApp;
let receiver: Receiver;
t.before(async () => {
  app = await startTestApp({ worker: true });
  receiver = await startReceiver();
});
t.after(async () => {
  await receiver.close();
  await app.close();
});

type Owner = Awaited<ReturnType<typeof makeOwner>>;

async function keyPinnedAt(o: Owner, pin: string) {
  const res = await app.request('POST', '/api_keys', { token: o.token, body: { account_id: o.accountId, name: 'Upgrading', role: 'admin', api_version_date: pin } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; secret: string };
}

const move = (o: Owner, id: string, body: Record<string, unknown> = {}) =>
  app.request('POST', `/api_keys/${id}/move_pin`, { token: o.token, body });
const rollback = (o: Owner, id: string) => app.request('POST', `/api_keys/${id}/rollback_pin`, { token: o.token });

/** The version a request by the key without an Api-Version-Date header runs at (echoed in the answer). */
async function versionUsedBy(o: Owner, secret: string): Promise<string | null> {
  const res = await app.request('GET', `/accounts/${o.accountId}`, { token: secret });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.headers.get('api-version-date');
}

async function subscribe(o: Owner, pin: string | null, events: string[]) {
  const res = await app.request('POST', '/webhooks', {
    token: o.key, version: HEAD, body: { account_id: o.accountId, url: receiver.url, events, ...(pin ? { api_version_date: pin } : {}) },
  });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; secret: string };
}

function invalidState(res: { status: number; body: any }, words: RegExp) {
  assert.is(res.status, 400, JSON.stringify(res.body));
  assert.is(res.body.error.type, 'invalid_state');
  assert.match(res.body.error.message, words);
}

t('a move pins the target with a 72-hour way back, names the subscriptions on the version left, and is delivered', async () => {
  const o = await makeOwner(app.db);
  const key = await keyPinnedAt(o, OLD);
  const following = await subscribe(o, OLD, ['api_key.pin_moved', 'api_key.pin_rolled_back']);
  const ahead = await subscribe(o, HEAD, ['api_key.pin_moved']);
  receiver.secret = following.secret;
  assert.is(await versionUsedBy(o, key.secret), OLD);

  const before = Date.now();
  const moved = await move(o, key.id);
  assert.is(moved.status, 200, JSON.stringify(moved.body));
  assert.is(moved.body.api_version_date, HEAD, 'the target defaults to the latest version');
  assert.is(moved.body.previous_api_version_date, OLD);
  assert.equal(moved.body.pin_subscriptions_following, [following.id]);
  const movedAt = Date.parse(moved.body.pin_moved_at);
  assert.ok(movedAt >= before - 1000 && movedAt <= Date.now() + 1000);
  assert.is(Date.parse(moved.body.pin_rollback_until) - movedAt, 72 * HOUR);
  assert.is(await versionUsedBy(o, key.secret), HEAD, 'the key\'s requests use the new pin at once');

  const delivered = await until(() => receiver.received.find((r) => r.json.type === 'api_key.pin_moved' && r.json.data.id === key.id),
    'api_key.pin_moved delivered', { timeoutMs: 15_000 });
  assert.is(delivered.json.data.api_version_date, HEAD);
  assert.is(delivered.json.data.previous_api_version_date, OLD);
  assert.is(delivered.json.data.secret, null);
  const deliveries = await app.request('GET', `/webhooks/${ahead.id}/deliveries`, { token: o.key, version: HEAD });
  assert.is(deliveries.status, 200, JSON.stringify(deliveries.body));
  assert.ok(deliveries.body.data.length >= 1, 'a subscription on another pin receives the event too');

  const shown = await app.request('GET', `/api_keys/${key.id}`, { token: o.token });
  assert.is(shown.body.pin_rollback_until, moved.body.pin_rollback_until);
});

t('a rollback within the window returns the pin; a second rollback is refused', async () => {
  const o = await makeOwner(app.db);
  const key = await keyPinnedAt(o, OLD);
  const moved = await move(o, key.id, { target: '2026-09-03' });
  assert.is(moved.status, 200, JSON.stringify(moved.body));
  assert.is(moved.body.api_version_date, '2026-09-02', 'a date between versions pins the version in force on it');

  const back = await rollback(o, key.id);
  assert.is(back.status, 200, JSON.stringify(back.body));
  assert.is(back.body.api_version_date, OLD);
  assert.is(back.body.previous_api_version_date, '2026-09-02');
  assert.is(back.body.pin_rollback_until, null);
  assert.is(await versionUsedBy(o, key.secret), OLD, 'the key\'s requests use the old pin again');
  const recorded = await app.db('events').where({ type: 'api_key.pin_rolled_back', account_id: o.accountId }).select('data');
  assert.is(recorded.length, 1);

  invalidState(await rollback(o, key.id), /no pin move to roll back/);
  invalidState(await rollback(o, (await keyPinnedAt(o, OLD)).id), /no pin move to roll back/);
});

t('a retried move with the same Idempotency-Key answers the first move and records one event', async () => {
  const o = await makeOwner(app.db);
  const key = await keyPinnedAt(o, OLD);
  const send = () => app.request('POST', `/api_keys/${key.id}/move_pin`, { token: o.token, body: {}, idempotencyKey: `move-${key.id}` });
  const first = await send();
  const again = await send();
  assert.is(first.status, 200, JSON.stringify(first.body));
  assert.equal(again.body, first.body);
  const moves = await app.db('events').where({ type: 'api_key.pin_moved', account_id: o.accountId }).count<{ count: string }[]>('id as count');
  assert.is(Number(moves[0].count), 1);
});

t('a pin set by PATCH after a move closes the way back', async () => {
  const o = await makeOwner(app.db);
  const key = await keyPinnedAt(o, OLD);
  assert.is((await move(o, key.id)).status, 200);
  const patched = await app.request('PATCH', `/api_keys/${key.id}`, { token: o.token, body: { api_version_date: '2026-09-02' } });
  assert.is(patched.status, 200, JSON.stringify(patched.body));
  assert.is(patched.body.pin_rollback_until, null);
  invalidState(await rollback(o, key.id), /no pin move to roll back/);
});

t('a move to the current pin, a bad target and a revoked key are refused', async () => {
  const o = await makeOwner(app.db);
  const key = await keyPinnedAt(o, HEAD);
  const same = await move(o, key.id, { target: HEAD });
  assert.is(same.status, 400, JSON.stringify(same.body));
  assert.is(same.body.error.param, 'target');
  const bad = await move(o, key.id, { target: 'soon' });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.param, 'target');
  assert.is((await app.request('POST', `/api_keys/${key.id}/revoke`, { token: o.token })).status, 200);
  assert.is((await move(o, key.id, { target: OLD })).status, 409);
  const other = await makeOwner(app.db);
  assert.is((await move(other, key.id, { target: OLD })).status, 404);
  assert.is((await app.request('POST', `/api_keys/${key.id}/move_pin`, { token: o.key, body: {} })).status, 403, 'an API key never manages keys');
});

t('on a sandbox clock the way back closes 72 hours after the move by the clock', async () => {
  const o = await makeOwner(app.db);
  const key = await keyPinnedAt(o, OLD);
  const start = new Date(Math.ceil((Date.now() + 86_400_000) / 1000) * 1000).toISOString();
  const clock = await app.request('POST', '/sandbox/clocks', { token: o.key, version: HEAD, body: { account_id: o.accountId, frozen_time: start } });
  assert.is(clock.status, 201, JSON.stringify(clock.body));
  const advance = async (to: string) => {
    const res = await app.request('POST', `/sandbox/clocks/${clock.body.id}/advance`, { token: o.key, version: HEAD, body: { frozen_time: to } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    await until(async () => (await app.request('GET', `/sandbox/clocks/${clock.body.id}`, { token: o.key, version: HEAD })).body.status === 'ready',
      `clock ready at ${to}`, { timeoutMs: 30_000 });
  };
  const at = (ms: number) => new Date(Date.parse(start) + ms).toISOString();

  const first = await move(o, key.id);
  assert.is(first.status, 200, JSON.stringify(first.body));
  assert.is(first.body.pin_moved_at, start, 'the move is dated by the account\'s clock');
  assert.is(first.body.pin_rollback_until, at(72 * HOUR));
  await advance(at(71 * HOUR));
  const back = await rollback(o, key.id);
  assert.is(back.status, 200, JSON.stringify(back.body));
  assert.is(back.body.api_version_date, OLD);

  const second = await move(o, key.id);
  assert.is(second.body.pin_rollback_until, at(143 * HOUR));
  await advance(at(143 * HOUR + 1000));
  invalidState(await rollback(o, key.id), new RegExp(`closed at ${at(143 * HOUR).replace(/[.]/g, '\\.')}`));
  assert.is(await versionUsedBy(o, key.secret), HEAD, 'the pin stays where it was moved');
});

t.run();
