// No secret in any log or table in the clear. One server logging everything (pino at trace) into
// this test; every flow that makes a secret runs through the API and the pages its secret opens; then the whole log
// and every row of every table of the test's database (each row as text) are searched for each secret.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Writable } from 'node:stream';
import pino from 'pino';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { REDACTED } from '../../runtime/secret-paths.js';
import { fundSide } from '../transfers/ledger-fixtures.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { until } from '../helpers/poll.js';
import { makeMembership } from '../memberships/fixtures.js';

const t = suite('no secret in any log or table in the clear');
let app: TestApp;
let receiver: Receiver;
const logLines: string[] = [];
const capture = new Writable({ write(chunk, _encoding, done) { logLines.push(String(chunk)); done(); } });

t.before(async () => {
  app = await startTestApp({ worker: true, logger: pino({ level: 'trace', base: undefined }, capture) });
  receiver = await startReceiver();
});
t.after(async () => {
  await receiver.close();
  await app.close();
});

/** Each secret the flows made, by what it is. */
const secrets = new Map<string, string>();
const keep = (what: string, value: unknown) => {
  assert.type(value, 'string', what);
  assert.ok((value as string).length >= 16, `${what} is a real secret: ${value}`);
  secrets.set(what, value as string);
};
const call = async (method: string, path: string, token: string, body?: unknown, idempotencyKey?: string) => {
  const res = await app.request(method, path, { token, body, version: headVersion(), idempotencyKey });
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
/** A page outside the API, at the link's path on the test server (links name the public origin). */
const open = (url: string, init?: RequestInit) => fetch(`${new URL(app.url).origin}${new URL(url).pathname}${new URL(url).search}`, init);
const lastSegment = (url: string) => new URL(url).pathname.split('/').pop()!;

/** Every row of every table of the test's database, as text. */
async function databaseDump(): Promise<string[]> {
  const tables = (await app.db.raw(`select table_schema, table_name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`)).rows;
  const rows: string[] = [];
  for (const { table_schema: schema, table_name: name } of tables) {
    const found = (await app.db.raw(`select t::text as row from "${schema}"."${name}" t`)).rows;
    rows.push(...found.map((r: { row: string }) => `${schema}.${name}: ${r.row}`));
  }
  return rows;
}

t('every flow that makes a secret leaves none of them in the request log or the database', async () => {
  const seller = await makeOwner(app.db);
  keep('API key (fixture)', seller.key);
  keep('user token (fixture)', seller.token);
  const { client_id: clientId } = await app.db('accounts').where({ id: seller.accountId }).first('client_id');

  // API keys: created (with Idempotency-Key: its stored response) and rotated.
  const key = await call('POST', '/api_keys', seller.token, { account_id: seller.accountId, name: 'ci', role: 'admin' }, 'key-once');
  keep('API key', key.secret);
  keep('API key (rotated)', (await call('POST', `/api_keys/${key.id}/rotate`, seller.token)).secret);

  // A webhook: its signing secret, which deliveries are signed with.
  const hook = await call('POST', '/webhooks', seller.key, {
    account_id: seller.accountId, url: receiver.url, events: ['transfer.created', 'setup_intent.requires_action', 'membership.activated',
      'membership.updated', 'membership.paused', 'membership.resumed', 'membership.extended', 'membership.canceled'], api_version_date: headVersion(),
  }, 'hook-once');
  keep('webhook secret', hook.secret);
  receiver.secret = hook.secret;

  // A payment asking for 3-D Secure: the step's page, opened and answered by the buyer.
  const buyer = await makeUser(app.db);
  const card = (number: string) => call('POST', '/confirmation_tokens', clientId, { card: { number, exp_month: 12, exp_year: 2030, cvc: '123' } });
  const payment = await call('POST', '/payments', seller.key, {
    account_id: seller.accountId, amount: 2500, currency: 'usd', user_id: buyer.id,
    confirmation_token: (await card('4000000000003220')).id, return_url: 'https://shop.example/done',
  }, 'pay-once');
  assert.is(payment.status, 'requires_action');
  const step = payment.next_action.redirect_to_url.url;
  assert.is((await call('GET', `/payments/${payment.id}`, seller.key)).next_action.redirect_to_url.url, step, 'shown again on reads');
  assert.is((await call('GET', `/payments/${payment.id}/status`, seller.key)).next_action.redirect_to_url.url, step);
  keep('3-D Secure step (payment)', lastSegment(step));
  assert.is((await open(step)).status, 200);
  const answered = await open(step, { method: 'POST', body: 'outcome=succeed', headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
  assert.is(answered.status, 303);

  // A setup intent asking for 3-D Secure: its client_secret and its step, which the worker reaches.
  const intent = await call('POST', '/setup_intents', seller.key, {
    account_id: seller.accountId, user_id: buyer.id, confirmation_token: (await card('4000002500003155')).id,
  });
  keep('setup intent client_secret', intent.client_secret);
  const waiting = await until(async () => {
    const got = await call('GET', `/setup_intents/${intent.id}`, seller.key);
    return got.status === 'requires_action' ? got : undefined;
  }, 'the setup intent to require action');
  assert.is(waiting.client_secret, intent.client_secret, 'shown again on retrieve');
  keep('3-D Secure step (setup intent)', lastSegment(waiting.next_action.redirect_url));
  assert.is((await open(waiting.next_action.redirect_url)).status, 200);

  // A receipt of the paid payment.
  await until(async () => (await call('GET', `/payments/${payment.id}`, seller.key)).status === 'succeeded', 'the payment to succeed');
  const receipt = await call('POST', `/payments/${payment.id}/generate_pdf`, seller.key);
  keep('receipt token', lastSegment(receipt.url).replace(/\.pdf$/, ''));
  assert.is((await open(receipt.url)).status, 200);

  // A claim link: its code (claim_url), its tracking link, its page; then a claim with the code and the claim's own
  // tracking link.
  await fundSide(app.db, seller.accountId, 10_000);
  const link = await call('POST', '/transfers', seller.key, { type: 'claim_link', origin_id: seller.accountId, amount: 1_000 }, 'link-once');
  keep('claim code', lastSegment(link.claim_url));
  keep('tracking token (claim link)', lastSegment(link.tracking_url));
  assert.is((await call('GET', `/transfers/${link.id}`, seller.key)).claim_url, link.claim_url, 'shown again to its origin');
  assert.is((await open(link.claim_url)).status, 200);
  assert.is((await open(link.tracking_url)).status, 200);
  const claimant = await makeUser(app.db);
  const claimed = await call('POST', `/transfers/${link.id}/claim`, claimant.token, { code: secrets.get('claim code') });
  keep('tracking token (claim)', lastSegment(claimed.tracking_url));
  assert.is((await open(claimed.tracking_url)).status, 200);

  // A private file: its signed upload and download links.
  const file = await call('POST', '/files', seller.key, { filename: 'notes.txt' });
  keep('upload signature', new URL(file.upload_url).searchParams.get('signature'));
  assert.is((await open(file.upload_url, { method: 'PUT', body: 'private notes', headers: file.upload_headers })).status, 200);
  const ready = await call('GET', `/files/${file.id}`, seller.key);
  keep('download signature', new URL(ready.url).searchParams.get('signature'));
  assert.is(await (await open(ready.url)).text(), 'private notes');

  // An OAuth-style connection: the single-use state of its consent page.
  const connect = await call('POST', '/external_accounts/connect', seller.key, { account_id: seller.accountId, platform: 'tiktok' });
  keep('OAuth state', new URL(connect.authorize_url).searchParams.get('state'));
  assert.is((await open(connect.authorize_url)).status, 200);

  // A license key, shown on reads (and in membership events as delivered), found by a path that carries it
  // (GET and PATCH /memberships/{id}, v2's retrieve and validate_license); each membership event is emitted once.
  const membership = await makeMembership(app, seller.accountId, buyer.id, { includesLicense: true });
  keep('license key', membership.licenseKey);
  const licenseKey = membership.licenseKey!;
  assert.is((await call('GET', `/memberships/${licenseKey}`, seller.key)).id, membership.id);
  assert.is((await call('GET', `/memberships/${membership.id}`, seller.key)).license_key, licenseKey, 'shown on reads');
  assert.ok((await call('GET', `/memberships?account_id=${seller.accountId}`, seller.key)).data.some((m: any) => m.license_key === licenseKey));
  const v2 = (path: string, method = 'GET', body?: unknown) => fetch(`${new URL(app.url).origin}/api/v2${path}`, {
    method, headers: { authorization: `Bearer ${seller.key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const v2Read = await v2(`/memberships/${licenseKey}`);
  assert.is(v2Read.status, 200, await v2Read.clone().text());
  assert.is((await v2Read.json()).license_key, licenseKey);
  const validated = await v2(`/memberships/${licenseKey}/validate_license`, 'POST', { metadata: { hardware_id: 'HW-1' } });
  assert.is(validated.status, 200, await validated.clone().text());
  assert.is((await call('PATCH', `/memberships/${licenseKey}`, seller.key, { metadata: { seat: 'a' } })).license_key, licenseKey);
  for (const action of ['pause', 'resume']) await call('POST', `/memberships/${membership.id}/${action}`, seller.key);
  await call('POST', `/memberships/${membership.id}/extend`, seller.key, { days: 3 });
  await call('POST', `/memberships/${membership.id}/cancel`, seller.key);

  // Deliveries are signed with the (sealed) webhook secret, and carry the links the stored events do not.
  await until(() => receiver.received.find((r) => r.json.type === 'transfer.created'), 'transfer.created delivered', { timeoutMs: 20_000 });
  const created = receiver.received.find((r) => r.json.type === 'transfer.created')!;
  assert.ok(created.verified, 'signed with the secret the create response showed');
  assert.is(created.json.data.tracking_url, link.tracking_url);
  assert.is(created.json.data.claim_url, null, 'a claim link\'s code is never in an event');
  const requiresAction = await until(() => receiver.received.find((r) => r.json.type === 'setup_intent.requires_action'),
    'setup_intent.requires_action delivered', { timeoutMs: 20_000 });
  assert.is(requiresAction.json.data.next_action.redirect_url, waiting.next_action.redirect_url);
  const membershipEvents = ['membership.activated', 'membership.updated', 'membership.paused', 'membership.resumed',
    'membership.extended', 'membership.canceled'];
  await until(() => membershipEvents.every((type) => receiver.received.some((r) => r.json.type === type)), 'membership events delivered', { timeoutMs: 20_000 });
  for (const delivered of receiver.received.filter((r) => r.json.type.startsWith('membership.'))) {
    assert.is(delivered.json.data.license_key, licenseKey, `${delivered.json.type} delivers the key the stored event keeps out`);
  }

  await app.server.apiLogs?.flush();
  const log = logLines.join('');
  const dump = await databaseDump();
  assert.ok(dump.length > 100, 'the dump holds the database');
  const leaks: string[] = [];
  for (const [what, secret] of secrets) {
    if (log.includes(secret)) leaks.push(`${what} in the log: ${logLines.find((l) => l.includes(secret))}`);
    for (const row of dump.filter((r) => r.includes(secret))) leaks.push(`${what} in ${row.slice(0, 300)}`);
  }
  assert.equal(leaks, [], leaks.join('\n'));
  // The log did record those requests, with their secrets redacted.
  const paths = logLines.map((line) => JSON.parse(line)).filter((l) => l.msg === 'request').map((l) => `${l.method} ${l.path}`);
  for (const expected of [`GET /claim/${REDACTED}`, `GET /transfers/track/${REDACTED}`, `GET /sandbox/authenticate/${REDACTED}`,
    `POST /sandbox/authenticate/${REDACTED}`, `GET /receipts/${REDACTED}`, `GET /sandbox/oauth/authorize`, `PUT /uploads/${file.id}/1`,
    `GET /api/v1/memberships/${REDACTED}`, `GET /api/v2/memberships/${REDACTED}`, `PATCH /api/v1/memberships/${REDACTED}`,
    `POST /api/v2/memberships/${REDACTED}/validate_license`]) {
    assert.ok(paths.includes(expected), `logged: ${expected}\n${paths.join('\n')}`);
  }
});

t.run();
