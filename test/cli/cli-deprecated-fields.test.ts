// `npm run cli -- deprecations` for deprecated fields (Webhook.api_version, deprecated since 2026-08-07 for
// api_version_date: spec/areas/webhooks.yaml). Two accounts: one whose key lists its webhook subscriptions (listWebhooks
// answers Webhooks, which carry the field), one whose key calls only operations that do not carry it (products), and
// whose team's subscription receives webhook.disabled (a Webhook payload) when its other subscription's receiver
// answers 410. The report lists exactly the first account and that subscription; --notify tells both accounts once,
// naming the field and its successor; the recorded evidence makes the generator refuse a sunset on the field before
// the notice, naming the users' count, and accept it after.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomToken } from '../../runtime/ids.js';
import { projectRoot } from '../../runtime/project-root.js';
import { startCliWorld, type CliWorld } from './cli-helpers.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { deliverWebhook } from '../../handlers/webhooks/delivery/deliver-webhook-task.js';
import { dispatchEvent } from '../../handlers/webhooks/delivery/dispatch-event-task.js';
import { loadSpec } from '../../generator/load-spec.js';
import { checkSunsets, EVIDENCE_FILE } from '../../generator/sunset-evidence.js';

const FIELD = 'Webhook.api_version';
const t = suite('npm run cli -- deprecations: deprecated fields');
let w: CliWorld;
let gone: Receiver;
let watcher: Receiver;
const scratch = mkdtempSync(join(tmpdir(), 'deprecated-fields-'));
t.before(async () => { w = await startCliWorld(); gone = await startReceiver(); watcher = await startReceiver(); });
t.after(async () => { await gone.close(); await watcher.close(); await w.close(); rmSync(scratch, { recursive: true, force: true }); });

async function ownedAccount(title: string) {
  const username = `depf_${randomToken(6).toLowerCase()}`;
  const user = await w.cli('create-user', '--username', username, '--email', `${username}@example.com`, '--json');
  assert.is(user.code, 0, user.stderr);
  const made = await w.cli('create-account', '--title', title, '--owner', username, '--json');
  assert.is(made.code, 0, made.stderr);
  return { ...JSON.parse(made.stdout), user_token: JSON.parse(user.stdout).user_token } as { account_id: string; api_key: string; api_key_id: string; user_token: string };
}

/** Runs the jobs requests queued (dispatch, then the deliveries due), as the worker would. */
async function runQueued(): Promise<void> {
  for (const id of await w.db('events').whereNull('dispatched_at').orderBy('created_at').pluck('id')) await dispatchEvent(w.db, id);
  const due = await w.db('webhook_deliveries').where({ status: 'pending' }).where('next_attempt_at', '<=', w.db.fn.now()).pluck('id');
  for (const id of due) await deliverWebhook(w.db, id);
}

const deprecatedUsage = async (token: string) => (await w.get('/notifications?first=50', token)).body.data
  .filter((n: { type: string }) => n.type === 'deprecated_usage');

/** The generator's sunset check on this spec with a sunset on the field, against the evidence in `file`. */
function sunsetProblems(file: string): string[] {
  const { spec } = loadSpec(projectRoot);
  spec.resources.Webhook.fields.api_version.deprecated!.sunset = '2099-01-01';
  const root = mkdtempSync(join(scratch, 'root-'));
  mkdirSync(join(root, 'spec'));
  writeFileSync(join(root, EVIDENCE_FILE), readFileSync(file, 'utf8'));
  return checkSunsets(spec, (f, path) => `${f}:${path.join('.')}`, root).filter((p) => p.includes(FIELD));
}

t('the report lists exactly the account whose key used the field and the subscription sent it; notices once; the sunset waits for them', async () => {
  const reader = await ownedAccount(`Field Reader ${randomToken(4)}`);
  const other = await ownedAccount(`Field Receiver ${randomToken(4)}`);
  const read = await w.get(`/webhooks?account_id=${reader.account_id}`, reader.api_key);
  assert.is(read.status, 200, JSON.stringify(read.body));
  assert.is((await w.get(`/products?account_id=${other.account_id}`, other.api_key)).status, 200);

  // The other account's team (a user token, not a key: its requests are logged with no account) subscribes a
  // receiver that is gone and one that watches, pinned to the latest version (the version its payloads render at).
  const subscribe = async (url: string, events: string[]) => {
    const made = await fetch(`${w.api}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other.user_token}`, 'content-type': 'application/json', 'api-version-date': '2026-09-06' },
      body: JSON.stringify({ account_id: other.account_id, url, events, api_version_date: '2026-09-06' }),
    });
    const body = await made.json();
    assert.is(made.status, 201, JSON.stringify(body));
    return body as { id: string; secret: string };
  };
  const goneHook = await subscribe(gone.url, ['product.created']);
  const watch = await subscribe(watcher.url, ['webhook.disabled']);
  watcher.secret = watch.secret;
  gone.respond = { status: 410, delayMs: 0 };
  const product = await w.send('POST', '/products', other.api_key, { account_id: other.account_id, title: 'Widget' });
  assert.is(product.status, 201, JSON.stringify(product.body));
  await runQueued(); // product.created to the gone receiver: 410, the subscription is disabled
  await runQueued(); // webhook.disabled to the watcher
  assert.equal(watcher.received.map((r) => [r.json.type, r.json.data.id, r.json.data.api_version]), [['webhook.disabled', goneHook.id, 'v1']]);
  await w.flushApiLogs();

  const shown = await w.cli('deprecations', '--days', '7', '--json');
  assert.is(shown.code, 0, shown.stderr);
  const report = JSON.parse(shown.stdout);
  const usage = report.fields.find((f: { field: string }) => f.field === FIELD);
  assert.equal([usage.since, usage.successor, usage.schema], ['2026-08-07', 'api_version_date', 'Webhook']);
  assert.equal(usage.accounts.map((a: { account_id: string; calls: number }) => [a.account_id, a.calls]), [[reader.account_id, 1]]);
  assert.equal(usage.accounts[0].api_keys.map((k: { api_key_id: string; operations: string[]; api_versions: string[] }) => [k.api_key_id, k.operations, k.api_versions]),
    [[reader.api_key_id, ['listWebhooks'], ['2026-09-06']]]);
  assert.equal(usage.subscriptions.map((s: { webhook_id: string; account_id: string; deliveries: number; event_types: string[]; api_versions: string[] }) =>
    [s.webhook_id, s.account_id, s.deliveries, s.event_types, s.api_versions]), [[watch.id, other.account_id, 1, ['webhook.disabled'], ['2026-09-06']]]);
  assert.equal(report.operations.filter((op: { accounts: unknown[] }) => op.accounts.length), [], 'no deprecated operation was called');
  const text = await w.cli('deprecations');
  assert.match(text.stdout, new RegExp(`${FIELD.replace('.', '\\.')} \\(since 2026-08-07; successor api_version_date\\): 1 account by key, 1 subscription\\n`
    + `    ${reader.account_id} \\(Field Reader [^)]+\\): 1 call, last [^\\n]+\\n      ${reader.api_key_id}: 1, last [^\\n]+, versions 2026-09-06, operations listWebhooks\\n`
    + `    webhook ${watch.id} of ${other.account_id} \\(Field Receiver [^)]+\\): 1 delivery, last [^\\n]+, versions 2026-09-06, events webhook.disabled`));

  // Before any notice, the evidence refuses a sunset on the field, naming its two users.
  const before = join(scratch, 'before.json');
  assert.is((await w.cli('deprecations', '--record', '--evidence', before)).code, 0);
  assert.equal(JSON.parse(readFileSync(before, 'utf8')).fields[FIELD], { users: 2, noticed_at: null });
  const refused = sunsetProblems(before);
  assert.is(refused.length, 1, refused.join('\n'));
  assert.match(refused[0], `spec/areas/webhooks.yaml:resources.Webhook.fields.api_version.deprecated.sunset: ${FIELD} cannot be given a sunset: 2 accounts used it in the 7 days before`);

  const first = await w.cli('deprecations', '--notify', '--json');
  assert.is(first.code, 0, first.stderr);
  assert.equal(JSON.parse(first.stdout).notices.filter((n: { field?: string }) => n.field === FIELD), [
    { account_id: reader.account_id, field: FIELD, successor: 'api_version_date', calls: 1, deliveries: 0, recipients: 1 },
    { account_id: other.account_id, field: FIELD, successor: 'api_version_date', calls: 0, deliveries: 1, recipients: 1 },
  ].sort((a, b) => (a.account_id < b.account_id ? -1 : 1))); // the notices' order: ids by code unit, as sort() orders them
  const toReader = await deprecatedUsage(reader.user_token);
  assert.is(toReader.length, 1);
  assert.match(toReader[0].content, `still uses the field ${FIELD}, which is deprecated: 1 call of operations carrying it (listWebhooks)`);
  assert.match(toReader[0].content, 'Use api_version_date instead.');
  assert.is(toReader[0].data.field, FIELD);
  const toOther = await deprecatedUsage(other.user_token);
  assert.is(toOther.length, 1);
  assert.match(toOther[0].content, `1 webhook delivery of events carrying it (webhook.disabled) to ${watch.id} in the last 7 days. Use api_version_date instead.`);

  const again = await w.cli('deprecations', '--notify');
  assert.is(again.code, 0, again.stderr);
  assert.match(again.stdout, /Notices sent: 0 \(every using account was already told in this window\)/);
  assert.is((await deprecatedUsage(reader.user_token)).length, 1);
  assert.is((await deprecatedUsage(other.user_token)).length, 1);

  // After the notice, the sunset (later than the notice) is accepted on the recorded evidence.
  const after = join(scratch, 'after.json');
  assert.is((await w.cli('deprecations', '--record', '--evidence', after)).code, 0);
  const evidence = JSON.parse(readFileSync(after, 'utf8')).fields[FIELD];
  assert.is(evidence.users, 2);
  assert.ok(Math.abs(Date.parse(evidence.noticed_at) - Date.now()) < 60_000, evidence.noticed_at);
  assert.equal(sunsetProblems(after), []);
});

t.run();
