// `npm run cli -- deprecations`: deprecation from evidence. Two accounts, one whose key calls a deprecated route
// (GET /plans, listPlans) and one that calls its successor (GET /variants): the report lists exactly the first,
// --notify tells its team once (a second run sends none), and --record writes the evidence a sunset needs.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomToken } from '../../runtime/ids.js';
import { startCliWorld, type CliWorld } from './cli-helpers.js';

const t = suite('npm run cli -- deprecations');
let w: CliWorld;
const scratch = mkdtempSync(join(tmpdir(), 'deprecations-'));
t.before(async () => { w = await startCliWorld(); });
t.after(async () => { await w.close(); rmSync(scratch, { recursive: true, force: true }); });

async function ownedAccount(title: string) {
  const username = `dep_${randomToken(6).toLowerCase()}`;
  const user = await w.cli('create-user', '--username', username, '--email', `${username}@example.com`, '--json');
  assert.is(user.code, 0, user.stderr);
  const made = await w.cli('create-account', '--title', title, '--owner', username, '--json');
  assert.is(made.code, 0, made.stderr);
  return { ...JSON.parse(made.stdout), user_token: JSON.parse(user.stdout).user_token } as { account_id: string; api_key: string; api_key_id: string; user_token: string };
}

const deprecatedUsage = async (token: string) => (await w.get('/notifications?first=50', token)).body.data
  .filter((n: { type: string; topic_id: string }) => n.type === 'deprecated_usage' && n.topic_id === 'ntop_deprecatedusage');

t('the report lists exactly the account that called a deprecated route; --notify tells it once; --record writes the evidence', async () => {
  const user = await ownedAccount(`Old Caller ${randomToken(4)}`);
  const other = await ownedAccount(`New Caller ${randomToken(4)}`);
  const old = await w.get(`/plans?account_id=${user.account_id}`, user.api_key);
  assert.is(old.status, 200, JSON.stringify(old.body));
  await w.get(`/plans?account_id=${user.account_id}`, user.api_key);
  assert.is((await w.get(`/variants?account_id=${other.account_id}`, other.api_key)).status, 200);
  await w.flushApiLogs();

  const shown = await w.cli('deprecations', '--days', '7', '--json');
  assert.is(shown.code, 0, shown.stderr);
  const report = JSON.parse(shown.stdout);
  const used = report.operations.filter((op: { accounts: unknown[] }) => op.accounts.length);
  assert.equal(used.map((op: { operation: string }) => op.operation), ['listPlans']);
  assert.equal(used[0].successor, '/variants');
  assert.equal(used[0].accounts.map((a: { account_id: string; calls: number }) => [a.account_id, a.calls]), [[user.account_id, 2]]);
  assert.equal(used[0].accounts[0].api_keys.map((k: { api_key_id: string }) => k.api_key_id), [user.api_key_id]);
  assert.ok(Math.abs(Date.parse(used[0].accounts[0].last_used_at) - Date.now()) < 60_000, used[0].accounts[0].last_used_at);
  assert.ok(report.operations.some((op: { operation: string }) => op.operation === 'createPlan'), 'unused deprecated operations are listed too');
  const text = await w.cli('deprecations');
  assert.match(text.stdout, new RegExp(`listPlans \\(GET /plans; successor /variants\\): 1 account\\n    ${user.account_id} \\(Old Caller [^)]+\\): 2 calls`));
  assert.not.match(text.stdout, other.account_id);

  const first = await w.cli('deprecations', '--notify', '--json');
  assert.is(first.code, 0, first.stderr);
  assert.equal(JSON.parse(first.stdout).notices, [{ account_id: user.account_id, operation: 'listPlans', successor: '/variants', calls: 2, recipients: 1 }]);
  const told = await deprecatedUsage(user.user_token);
  assert.is(told.length, 1);
  assert.match(told[0].content, /GET \/plans \(listPlans\), which is deprecated: 2 calls in the last 7 days/);
  assert.match(told[0].content, /Use \/variants instead\./);
  assert.equal(await deprecatedUsage(other.user_token), []);

  const again = await w.cli('deprecations', '--notify');
  assert.is(again.code, 0, again.stderr);
  assert.match(again.stdout, /Notices sent: 0 \(every using account was already told in this window\)/);
  assert.is((await deprecatedUsage(user.user_token)).length, 1);

  const file = join(scratch, 'evidence.json');
  const recorded = await w.cli('deprecations', '--record', '--evidence', file);
  assert.is(recorded.code, 0, recorded.stderr);
  const evidence = JSON.parse(readFileSync(file, 'utf8'));
  assert.is(evidence.window_days, 7);
  assert.is(evidence.operations.listPlans.users, 1);
  assert.ok(Math.abs(Date.parse(evidence.operations.listPlans.noticed_at) - Date.now()) < 60_000);
  assert.equal(evidence.operations.createPlan, { users: 0, noticed_at: null });
});

t('mistakes exit 1 naming the option', async () => {
  const days = await w.cli('deprecations', '--days', 'week');
  assert.equal([days.code, /--days must be a whole number of days from 1 to 99, not 'week'/.test(days.stderr)], [1, true]);
  const evidence = await w.cli('deprecations', '--evidence', 'x.json');
  assert.match(evidence.stderr, /--evidence names the file --record writes; give --record too/);
});

t.run();
