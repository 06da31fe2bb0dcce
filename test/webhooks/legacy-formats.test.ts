// Legacy (v2 and v5) subscriptions, which must keep receiving the format their receivers parse: imported by the
// operator CLI or made through the deprecated /api/v2, never created or switched to through /api/v1; each keeps
// delivering its own payload format, received here by a real HTTP receiver from the server's own worker, and shows its
// real api_version at every pin.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { runCli } from '../cli/cli-helpers.js';
import { startReceiver, until, type Receiver } from './receiver.js';
import { verify } from '../../handlers/webhooks/delivery/signature.js';
import { randomToken } from '../../runtime/ids.js';
import { headVersion } from '../../runtime/versions.js';
import { v2Settings } from '../../generated/v2-routes.js';

const OLD_PIN = '2026-07-20'; // the official client's pin: api_version was still an input then
const t = suite('webhooks: legacy v2 and v5 subscriptions');
let app: TestApp;
let receiver: Receiver;
t.before(async () => { app = await startTestApp({ worker: true }); receiver = await startReceiver(); });
t.after(async () => { await receiver.close(); await app.close(); });

/** `npm run cli -- ...` on the test app's database. */
const cli = (...args: string[]) => runCli(args, { ...process.env, DATABASE_URL: app.databaseUrl });

/** A Current API request (`v2`: the deprecated /api/v2 instead). */
async function call(method: string, path: string, key: string, o: { version?: string; body?: unknown; v2?: boolean } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (o.version) headers['api-version-date'] = o.version;
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  const base = o.v2 ? `${app.server.url}${v2Settings.basePath}` : app.url;
  const res = await fetch(`${base}${path}`, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
  return { status: res.status, body: await res.json() as any };
}

async function account() {
  const made = await cli('create-account', '--title', `Legacy ${randomToken(4)}`, '--json');
  assert.is(made.code, 0, made.stderr);
  return JSON.parse(made.stdout) as { account_id: string; api_key: string };
}

async function importHook(accountId: string, format: string, ...extra: string[]) {
  const run = await cli('operator', 'import-webhook', '--account', accountId, '--url', receiver.url, '--format', format,
    '--events', 'account.updated', '--operator', 'ada', ...extra, '--json');
  assert.is(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as { webhook: any; secret: string; operator_action: { action: string; operator: string; at: string } };
}

t('imported v2 and v5 subscriptions receive their own formats from one event; a v1 one the current envelope', async () => {
  const { account_id: id, api_key: key } = await account();
  const given = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
  const v2 = await importHook(id, 'v2');
  const v5 = await importHook(id, 'v5', '--secret', given);
  assert.is(v2.webhook.api_version, 'v2');
  assert.is(v5.webhook.api_version, 'v5');
  assert.is(v5.secret, given, 'a given secret is kept, so the receiver keeps verifying');
  assert.match(v2.secret, /^whsec_/);
  assert.is(v2.webhook.api_version_date, null);
  const v1 = await call('POST', '/webhooks', key, { version: headVersion(), body: { account_id: id, url: receiver.url, events: ['account.updated'] } });
  assert.is(v1.status, 201, JSON.stringify(v1.body));
  assert.is(v1.body.api_version, 'v1');

  receiver.received.length = 0;
  const renamed = await call('PATCH', `/accounts/${id}`, key, { version: headVersion(), body: { title: 'Legacy renamed' } });
  assert.is(renamed.status, 200, JSON.stringify(renamed.body));
  await until(() => receiver.received.length >= 3 || undefined, 'three deliveries');
  const deliveryOf = async (hook: string, secret: string) => {
    const listed = await call('GET', `/webhooks/${hook}/deliveries`, key, { version: headVersion() });
    assert.is(listed.body.data.length, 1, JSON.stringify(listed.body));
    const got = receiver.received.find((r) => r.id === listed.body.data[0].id)!;
    assert.ok(got, `delivery of ${hook} received`);
    assert.ok(verify(secret, got, got.body), `the ${hook} delivery is signed with its secret`);
    return got.json;
  };
  const p2 = await deliveryOf(v2.webhook.id, v2.secret);
  const p5 = await deliveryOf(v5.webhook.id, given);
  const p1 = await deliveryOf(v1.body.id, v1.body.secret);

  // v2: {id, action, api_version, company_id, created_at (Unix seconds), data}
  assert.equal(Object.keys(p2).sort(), ['action', 'api_version', 'company_id', 'created_at', 'data', 'id']);
  assert.equal([p2.action, p2.api_version, p2.company_id], ['account.updated', 'v2', id]);
  assert.ok(Number.isInteger(p2.created_at), String(p2.created_at));
  assert.is(p2.data.id, id);
  assert.is(p2.data.title, 'Legacy renamed');
  // v5: the flat event object {id, object, api_version, type, created, company_id, data: {object}}
  assert.equal(Object.keys(p5).sort(), ['api_version', 'company_id', 'created', 'data', 'id', 'object', 'type']);
  assert.equal([p5.object, p5.api_version, p5.type, p5.company_id, p5.id], ['event', 'v5', 'account.updated', id, p2.id]);
  assert.is(p5.created, p2.created_at);
  assert.equal(Object.keys(p5.data), ['object']);
  assert.equal(p5.data.object, p2.data, 'both legacy formats carry the resource at the pre-versioning model');
  // v1 (current, unpinned): {id, type, api_version_date, created_at (ISO), company_id, data}
  assert.equal([p1.type, p1.api_version_date, p1.company_id, p1.id], ['account.updated', null, id, p2.id]);
  assert.is(p1.action, undefined);
  assert.is(p1.api_version, undefined);
  assert.is(new Date(p1.created_at).getTime() / 1000 | 0, p2.created_at);

  // Each import is an operator action, with who and when, seen by the operator command.
  assert.equal([v2.operator_action.operator, v2.operator_action.action], ['ada', `import-webhook:v2:${v2.webhook.id}`]);
  assert.ok(Math.abs(Date.parse(v5.operator_action.at) - Date.now()) < 120_000, v5.operator_action.at);
  const shown = await cli('operator', '--account', id, '--json');
  assert.is(JSON.parse(shown.stdout).last_change.action, `import-webhook:v5:${v5.webhook.id}`);
});

t('list and retrieve show api_version v2 and v5 at the latest and at an older pin; /api/v2 makes a v2 subscription', async () => {
  const { account_id: id, api_key: key } = await account();
  const v2 = (await importHook(id, 'v2')).webhook.id as string;
  const v5 = (await importHook(id, 'v5')).webhook.id as string;
  const made = await call('POST', '/webhooks', key, {
    v2: true, body: { company_id: id, url: receiver.url, events: ['account.updated'] },
  });
  assert.is(made.status, 201, JSON.stringify(made.body));
  assert.is(made.body.api_version, 'v2', 'what /api/v2 answers is what it delivers');
  const v1 = await call('POST', '/webhooks', key, { version: OLD_PIN, body: { resource_id: id, url: receiver.url, api_version: 'v1' } });
  assert.is(v1.body.api_version, 'v1');
  const expected: Record<string, string> = { [v2]: 'v2', [v5]: 'v5', [made.body.id]: 'v2', [v1.body.id]: 'v1' };
  for (const version of [headVersion(), '2026-08-13', OLD_PIN]) {
    const query = version === headVersion() ? `account_id=${id}` : `company_id=${id}`;
    const listed = await call('GET', `/webhooks?${query}`, key, { version });
    assert.is(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(Object.fromEntries(listed.body.data.map((x: any) => [x.id, x.api_version])), expected, version);
    for (const [hook, format] of Object.entries(expected)) {
      const got = await call('GET', `/webhooks/${hook}`, key, { version });
      assert.is(got.body.api_version, format, `${hook} at ${version}`);
    }
  }
});

t('the API refuses creating or switching to v2 or v5; a legacy subscription is managed, not pinned, and can move to v1', async () => {
  const { account_id: id, api_key: key } = await account();
  const v5 = (await importHook(id, 'v5')).webhook.id as string;
  const v2 = (await importHook(id, 'v2')).webhook.id as string;
  for (const format of ['v2', 'v5']) {
    const created = await call('POST', '/webhooks', key, { version: OLD_PIN, body: { url: receiver.url, api_version: format } });
    assert.equal([created.status, created.body.error?.param], [400, 'api_version']);
    assert.match(created.body.error.message, /cannot be created or switched to through \/api\/v1/);
    const switched = await call('PATCH', `/webhooks/${v2}`, key, { version: OLD_PIN, body: { api_version: format } });
    assert.equal([switched.status, switched.body.error?.param], [400, 'api_version']);
    const latest = await call('POST', '/webhooks', key, { version: headVersion(), body: { url: receiver.url, api_version: format } });
    assert.equal([latest.status, latest.body.error?.param], [400, 'api_version']);
  }
  const pinned = await call('PATCH', `/webhooks/${v5}`, key, { version: headVersion(), body: { api_version_date: headVersion() } });
  assert.equal([pinned.status, pinned.body.error?.param], [400, 'api_version_date']);
  assert.match(pinned.body.error.message, /v5 format fixes its payloads/);
  const viaV2 = await call('POST', '/webhooks', key, {
    v2: true, body: { company_id: id, url: receiver.url, api_version_date: headVersion() },
  });
  assert.equal([viaV2.status, viaV2.body.error?.param], [400, 'api_version_date']);

  const managed = await call('PATCH', `/webhooks/${v5}`, key, { version: headVersion(), body: { events: ['payment.succeeded'], enabled: false } });
  assert.is(managed.status, 200, JSON.stringify(managed.body));
  assert.equal([managed.body.api_version, managed.body.events, managed.body.enabled], ['v5', ['payment.succeeded'], false]);
  const unchanged = await call('PATCH', `/webhooks/${v5}`, key, { version: OLD_PIN, body: { api_version: null } });
  assert.is(unchanged.body.api_version, 'v5');

  const upgraded = await call('PATCH', `/webhooks/${v2}`, key, { version: OLD_PIN, body: { api_version: 'v1' } });
  assert.is(upgraded.status, 200, JSON.stringify(upgraded.body));
  assert.is(upgraded.body.api_version, 'v1');
  assert.is((await call('GET', `/webhooks/${v2}`, key, { version: headVersion() })).body.api_version, 'v1');
  const nowPinned = await call('PATCH', `/webhooks/${v2}`, key, { version: headVersion(), body: { api_version_date: headVersion() } });
  assert.is(nowPinned.status, 200, JSON.stringify(nowPinned.body));
  assert.is(nowPinned.body.api_version_date, headVersion());
});

t.run();
