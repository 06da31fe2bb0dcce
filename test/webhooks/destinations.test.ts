// Where webhooks may go (WEBHOOK_ALLOW_PRIVATE_DESTINATIONS): with the setting off, loopback, private, link-local,
// multicast and metadata addresses are refused when a subscription is saved and again, after resolving the name,
// when it is delivered; with it on (a server on loopback), local listeners get their deliveries; metadata never.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { startReceiver, until, type Receiver } from './receiver.js';
import { startWorkerProcess } from '../helpers/processes.js';
import { deliverWebhook } from '../../handlers/webhooks/delivery/deliver-webhook-task.js';
import { dispatchEvent } from '../../handlers/webhooks/delivery/dispatch-event-task.js';
import { PRIVATE_DESTINATIONS_SETTING, webhookDestinationPolicy } from '../../handlers/webhooks/destination-policy.js';

const HEAD = '2026-09-06';
const t = suite('webhooks: destinations');
let app: TestApp;
let receiver: Receiver;
const saved = process.env[PRIVATE_DESTINATIONS_SETTING];
t.before(async () => {
  app = await startTestApp();
  receiver = await startReceiver();
});
t.after(async () => {
  setAllowed(saved);
  await receiver.close();
  await app.close();
});
t.after.each(() => setAllowed(saved));

/** The setting as a restarted server would read it (every check reads the environment when it runs). */
function setAllowed(value: string | undefined) {
  if (value === undefined) delete process.env[PRIVATE_DESTINATIONS_SETTING];
  else process.env[PRIVATE_DESTINATIONS_SETTING] = value;
}

const create = (o: { key: string; accountId: string }, url: string) =>
  app.request('POST', '/webhooks', { token: o.key, version: HEAD, body: { account_id: o.accountId, url, events: ['account.updated'] } });

function refused(res: { status: number; body: any }, url: string, why: RegExp) {
  assert.is(res.status, 400, `${url}: ${JSON.stringify(res.body)}`);
  assert.is(res.body.error.type, 'invalid_request');
  assert.is(res.body.error.param, 'url');
  assert.match(res.body.error.message, why, url);
}

/** Runs the jobs the request queued (dispatch, then deliveries), as the worker would. */
async function runQueued(): Promise<void> {
  const events = await app.db('events').whereNull('dispatched_at').pluck('id');
  for (const id of events) await dispatchEvent(app.db, id);
  const deliveries = await app.db('webhook_deliveries').where({ status: 'pending' }).where('next_attempt_at', '<=', app.db.fn.now()).pluck('id');
  for (const id of deliveries) await deliverWebhook(app.db, id);
}

const attemptsOf = async (o: { key: string }, hookId: string) => {
  const res = await app.request('GET', `/webhooks/${hookId}/deliveries`, { token: o.key, version: HEAD });
  assert.is(res.status, 200);
  return res.body.data.flatMap((d: any) => d.attempts) as { response_status: number | null; error: string | null }[];
};

t('the default follows HOST: allowed when the server listens on loopback only, refused on any other address', () => {
  const allowed = (env: Record<string, string>) => webhookDestinationPolicy(env).allowPrivate;
  assert.is(allowed({}), true, 'HOST unset is 127.0.0.1');
  for (const host of ['127.0.0.1', '127.0.0.5', '::1', '[::1]', 'localhost']) assert.is(allowed({ HOST: host }), true, host);
  for (const host of ['0.0.0.0', '::', '10.0.0.4', '203.0.113.9', 'api.example.com']) assert.is(allowed({ HOST: host }), false, host);
  assert.is(allowed({ HOST: '0.0.0.0', [PRIVATE_DESTINATIONS_SETTING]: 'true' }), true);
  assert.is(allowed({ HOST: '127.0.0.1', [PRIVATE_DESTINATIONS_SETTING]: 'false' }), false);
  assert.throws(() => webhookDestinationPolicy({ [PRIVATE_DESTINATIONS_SETTING]: 'sometimes' }), /must be true or false/);
});

t('with the setting off, create and update refuse every non-public destination, naming url and why', async () => {
  setAllowed('false');
  const o = await makeOwner(app.db);
  const cases: [string, RegExp][] = [
    ['http://127.0.0.1:4000/hook', /127\.0\.0\.1 is a loopback address/],
    ['https://127.0.0.2/hook', /loopback/],
    ['https://2130706433/hook', /127\.0\.0\.1 is a loopback address/], // 127.0.0.1 as one number
    ['http://localhost:4000/hook', /localhost is a loopback address/],
    ['https://app.localhost/hook', /loopback/],
    ['http://[::1]:4000/hook', /::1 is a loopback address/],
    ['https://[::ffff:127.0.0.1]/hook', /loopback/],
    ['https://10.1.2.3/hook', /10\.1\.2\.3 is a private address/],
    ['https://172.16.0.1/hook', /private/],
    ['https://192.168.1.20/hook', /private/],
    ['https://[fd12:3456::1]/hook', /private/],
    ['https://[::ffff:10.0.0.1]/hook', /private/],
    ['https://[64:ff9b::a00:1]/hook', /private/], // NAT64 of 10.0.0.1
    ['https://100.64.0.7/hook', /carrier-grade NAT/],
    ['https://169.254.10.10/hook', /link-local/],
    ['https://[fe80::1]/hook', /link-local/],
    ['https://224.0.0.1/hook', /multicast/],
    ['https://[ff02::1]/hook', /multicast/],
    ['https://0.0.0.0/hook', /unspecified/],
    ['https://169.254.169.254/latest/meta-data', /cloud metadata/],
    ['https://[fd00:ec2::254]/', /cloud metadata/],
    ['https://[::ffff:169.254.169.254]/', /cloud metadata/],
    ['https://metadata.google.internal/computeMetadata/v1/', /cloud metadata/],
  ];
  for (const [url, why] of cases) {
    const res = await create(o, url);
    refused(res, url, why);
  }
  assert.match((await create(o, 'https://10.1.2.3/hook')).body.error.message, new RegExp(PRIVATE_DESTINATIONS_SETTING));
  const publicHook = await create(o, 'https://93.184.216.34/hook');
  assert.is(publicHook.status, 201, JSON.stringify(publicHook.body));
  const patch = await app.request('PATCH', `/webhooks/${publicHook.body.id}`, { token: o.key, version: HEAD, body: { url: 'https://192.168.0.1/hook' } });
  refused(patch, 'PATCH to 192.168.0.1', /private/);
  const kept = await app.request('GET', `/webhooks/${publicHook.body.id}`, { token: o.key, version: HEAD });
  assert.is(kept.body.url, 'https://93.184.216.34/hook', 'a refused update changes nothing');
});

t('with the setting on, local listeners are accepted and delivered to; metadata addresses still are not', async () => {
  setAllowed('true');
  const o = await makeOwner(app.db);
  const hook = await create(o, receiver.url);
  assert.is(hook.status, 201, JSON.stringify(hook.body));
  const other = await makeOwner(app.db); // its subscription is never sent anything
  assert.is((await create(other, 'https://10.1.2.3/hook')).status, 201);
  refused(await create(other, 'https://169.254.169.254/latest/meta-data'), 'metadata', /cloud metadata address, where webhooks are never delivered/);
  refused(await create(other, 'https://metadata.google.internal/'), 'metadata name', /cloud metadata/);
  receiver.received.length = 0;
  await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { title: 'Local delivery' } });
  await runQueued();
  assert.is(receiver.received.length, 1);
  assert.equal((await attemptsOf(o, hook.body.id)).map((a) => [a.response_status, a.error]), [[200, null]]);
});

t('delivery checks again: a subscription saved while allowed is refused, unconnected, once the setting is off', async () => {
  setAllowed('true');
  const o = await makeOwner(app.db);
  const port = new URL(receiver.url).port;
  // localhost is a name: at delivery it is resolved (to 127.0.0.1 here) and the address it gives is what is refused.
  const byName = await create(o, `http://localhost:${port}/hook`);
  const byAddress = await create(o, receiver.url);
  assert.is(byName.status, 201);
  assert.is(byAddress.status, 201);
  setAllowed('false');
  receiver.received.length = 0;
  await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { title: 'Not inside' } });
  await runQueued();
  assert.is(receiver.received.length, 0, 'nothing reached the listener');
  const [named] = await attemptsOf(o, byName.body.id);
  assert.is(named.response_status, null);
  assert.match(named.error!, /^refused: localhost resolves to a loopback address/);
  assert.match(named.error!, new RegExp(PRIVATE_DESTINATIONS_SETTING));
  const [literal] = await attemptsOf(o, byAddress.body.id);
  assert.match(literal.error!, /^refused: 127\.0\.0\.1 is a loopback address/);
  // The refused attempt is retried as any failure is: allowed again, the next attempt delivers.
  setAllowed('true');
  const pending = await app.db('webhook_deliveries').whereIn('webhook_id', [byName.body.id, byAddress.body.id]).pluck('id');
  for (const id of pending) assert.is(await deliverWebhook(app.db, id), 'succeeded');
  assert.is(receiver.received.length, 2);
});

t('`npm run worker` given neither HOST nor the setting delivers to public addresses only', async () => {
  setAllowed('true');
  const o = await makeOwner(app.db);
  const hook = await create(o, receiver.url);
  assert.is(hook.status, 201);
  receiver.received.length = 0;
  await app.request('PATCH', `/accounts/${o.accountId}`, { token: o.key, version: HEAD, body: { title: 'Separate worker' } });
  const worker = await startWorkerProcess(app.databaseUrl, { [PRIVATE_DESTINATIONS_SETTING]: '', HOST: '' });
  try {
    const [attempt] = await until(async () => {
      const attempts = await attemptsOf(o, hook.body.id);
      return attempts.length > 0 ? attempts : null;
    }, 'the worker process\'s attempt', 15_000);
    assert.match(attempt.error!, /^refused: 127\.0\.0\.1 is a loopback address/);
    assert.is(receiver.received.length, 0);
  } finally {
    await worker.kill('SIGTERM');
  }
});

t.run();
