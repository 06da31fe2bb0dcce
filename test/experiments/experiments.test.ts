// /experiments over HTTP: create (variant rules), list and retrieve, deterministic evaluation for each subject kind
// (the documented hash, checked independently here), ending with findings and its illegal second end, scopes,
// another account's experiment → 404, and the older shapes before entries 28 (2026-08-25) and 31 (2026-08-21).
import { createHash } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';

const VERSION = headVersion();
const BEFORE_28 = '2026-08-24'; // pins before 2026-08-25: no account_id, opaque subject_id
const BEFORE_31 = '2026-08-14'; // pins before 2026-08-21: findings optional
const t = suite('experiments');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const VARIANTS = [{ key: 'control', weight: 1 }, { key: 'treatment', weight: 3 }];
const create = (token: string, body: Record<string, unknown>, version = VERSION) =>
  app.request('POST', '/experiments', { token, version, body });

async function experiment(owner: { key: string; accountId: string }, variants = VARIANTS) {
  const res = await create(owner.key, { account_id: owner.accountId, name: 'Checkout copy', variants });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** The assignment as the spec describes it, computed without the server's code. */
function expected(id: string, kind: string, subject: string, variants: { key: string; weight: number }[]): string {
  const n = createHash('sha256').update(`${id}:${kind}:${subject}`).digest().readBigUInt64BE(0);
  let point = n % variants.reduce((s, v) => s + BigInt(v.weight), 0n);
  for (const v of variants) { if (point < BigInt(v.weight)) return v.key; point -= BigInt(v.weight); }
  throw new Error('no variant');
}

t('creating an experiment answers it running, with its variants, and emits experiment.created', async () => {
  const owner = await makeOwner(app.db);
  const e = await experiment(owner);
  assert.match(e.id, /^expt_/);
  assert.equal([e.account_id, e.name, e.description, e.status, e.variants, e.findings, e.ended_at],
    [owner.accountId, 'Checkout copy', null, 'running', VARIANTS, null, null]);
  const events = await app.db('events').whereRaw("data->>'id' = ?", [e.id]).select('type');
  assert.equal(events.map((x) => x.type), ['experiment.created']);
  const got = await app.request('GET', `/experiments/${e.id}`, { token: owner.key, version: VERSION });
  assert.equal(got.body, e);
});

t('variant rules: at least two, unique keys, weights 1..10000; each refusal names variants and writes nothing', async () => {
  const owner = await makeOwner(app.db);
  const bad = [
    [{ key: 'only', weight: 1 }],
    [{ key: 'a', weight: 1 }, { key: 'a', weight: 2 }],
    [{ key: 'a', weight: 0 }, { key: 'b', weight: 2 }],
    [{ key: 'a', weight: 10001 }, { key: 'b', weight: 2 }],
    [{ key: 'a b', weight: 1 }, { key: 'b', weight: 2 }],
  ];
  for (const variants of bad) {
    const res = await create(owner.key, { account_id: owner.accountId, name: 'x', variants });
    assert.is(res.status, 400, JSON.stringify(variants));
    assert.match(String(res.body.error.param), /^variants/);
  }
  const missing = await create(owner.key, { account_id: owner.accountId, variants: VARIANTS });
  assert.is(missing.status, 400);
  assert.is(missing.body.error.param, 'name');
  const count = await app.db('experiments').where({ account_id: owner.accountId }).count('* as n');
  assert.is(Number(count[0]!.n), 0);
});

t('evaluation is deterministic per subject, follows the documented hash and differs by subject kind', async () => {
  const owner = await makeOwner(app.db);
  const e = await experiment(owner);
  const counts: Record<string, number> = { control: 0, treatment: 0 };
  for (let i = 0; i < 200; i++) {
    const res = await app.request('POST', `/experiments/${e.id}/evaluate`, { token: owner.key, version: VERSION, body: { subject: { anonymous_id: `visitor-${i}` } } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.variant, expected(e.id, 'anonymous', `visitor-${i}`, VARIANTS));
    counts[res.body.variant]! += 1;
  }
  // weights 1:3 → about 50 and 150 of 200; a wide band so the test checks the weighting, not luck
  assert.ok(counts.treatment! > 110 && counts.control! > 20, JSON.stringify(counts));
  const again = await app.request('POST', `/experiments/${e.id}/evaluate`, { token: owner.key, version: VERSION, body: { subject: { anonymous_id: 'visitor-7' } } });
  assert.is(again.body.variant, expected(e.id, 'anonymous', 'visitor-7', VARIANTS));
  const byUser = await app.request('POST', `/experiments/${e.id}/evaluate`, { token: owner.key, version: VERSION, body: { subject: { user_id: owner.owner.id } } });
  assert.equal(byUser.body, { object: 'experiment_evaluation', experiment_id: e.id, subject_type: 'user', subject_id: owner.owner.id,
    variant: expected(e.id, 'user', owner.owner.id, VARIANTS), status: 'running' });
  const byAccount = await app.request('POST', `/experiments/${e.id}/evaluate`, { token: owner.key, version: VERSION, body: { subject: { account_id: owner.accountId } } });
  assert.is(byAccount.body.subject_type, 'account');
  assert.is(byAccount.body.variant, expected(e.id, 'account', owner.accountId, VARIANTS));
});

t('evaluation needs exactly one subject kind, with a well-formed id', async () => {
  const owner = await makeOwner(app.db);
  const e = await experiment(owner);
  for (const subject of [{}, { anonymous_id: 'a', user_id: owner.owner.id }]) {
    const res = await app.request('POST', `/experiments/${e.id}/evaluate`, { token: owner.key, version: VERSION, body: { subject } });
    assert.is(res.status, 400, JSON.stringify(subject));
    assert.is(res.body.error.param, 'subject');
  }
  const wrongPrefix = await app.request('POST', `/experiments/${e.id}/evaluate`, { token: owner.key, version: VERSION, body: { subject: { user_id: owner.accountId } } });
  assert.is(wrongPrefix.status, 400);
  assert.match(String(wrongPrefix.body.error.param), /user_id/);
  const none = await app.request('POST', `/experiments/${e.id}/evaluate`, { token: owner.key, version: VERSION, body: {} });
  assert.is(none.status, 400);
});

t('ending records findings and ended_at once; a second end is invalid_state; ended experiments still evaluate', async () => {
  const owner = await makeOwner(app.db);
  const e = await experiment(owner);
  const noFindings = await app.request('POST', `/experiments/${e.id}/end`, { token: owner.key, version: VERSION, body: {} });
  assert.is(noFindings.status, 400);
  assert.is(noFindings.body.error.param, 'findings');
  const ended = await app.request('POST', `/experiments/${e.id}/end`, { token: owner.key, version: VERSION, body: { findings: 'Treatment converts 4% better.' } });
  assert.is(ended.status, 200, JSON.stringify(ended.body));
  assert.equal([ended.body.status, ended.body.findings], ['ended', 'Treatment converts 4% better.']);
  assert.ok(ended.body.ended_at);
  const again = await app.request('POST', `/experiments/${e.id}/end`, { token: owner.key, version: VERSION, body: { findings: 'again' } });
  assert.is(again.status, 400);
  assert.is(again.body.error.type, 'invalid_state');
  const stored = await app.db('experiments').where({ id: e.id }).first();
  assert.is(stored.findings, 'Treatment converts 4% better.');
  const events = await app.db('events').whereRaw("data->>'id' = ?", [e.id]).orderBy('created_at').select('type');
  assert.equal(events.map((x) => x.type), ['experiment.created', 'experiment.ended']);
  const ev = await app.request('POST', `/experiments/${e.id}/evaluate`, { token: owner.key, version: VERSION, body: { subject: { anonymous_id: 'v' } } });
  assert.equal([ev.body.status, ev.body.variant], ['ended', expected(e.id, 'anonymous', 'v', VARIANTS)]);
});

t('lists: the account\'s experiments newest first, status filter, every visible account without account_id', async () => {
  const owner = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const first = await experiment(owner);
  const second = await experiment(owner);
  await experiment(other);
  await app.request('POST', `/experiments/${first.id}/end`, { token: owner.key, version: VERSION, body: { findings: 'done' } });
  const all = await app.request('GET', `/experiments?account_id=${owner.accountId}`, { token: owner.key, version: VERSION });
  assert.equal(all.body.data.map((x: any) => x.id), [second.id, first.id]);
  const ended = await app.request('GET', `/experiments?account_id=${owner.accountId}&status=ended`, { token: owner.key, version: VERSION });
  assert.equal(ended.body.data.map((x: any) => x.id), [first.id]);
  const mine = await app.request('GET', '/experiments', { token: owner.key, version: VERSION });
  assert.equal(mine.body.data.map((x: any) => x.id), [second.id, first.id]);
  const badStatus = await app.request('GET', `/experiments?status=paused`, { token: owner.key, version: VERSION });
  assert.is(badStatus.status, 400);
  assert.is(badStatus.body.error.param, 'status');
});

t('another account\'s experiment is a 404 for every operation; missing scopes are 403', async () => {
  const owner = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const e = await experiment(owner);
  const calls: [string, string, Record<string, unknown> | undefined][] = [
    ['GET', `/experiments/${e.id}`, undefined],
    ['POST', `/experiments/${e.id}/evaluate`, { subject: { anonymous_id: 'a' } }],
    ['POST', `/experiments/${e.id}/end`, { findings: 'f' }],
  ];
  for (const [method, path, body] of calls) {
    const res = await app.request(method, path, { token: other.key, version: VERSION, body });
    assert.is(res.status, 404, `${method} ${path}`);
  }
  const list = await app.request('GET', `/experiments?account_id=${owner.accountId}`, { token: other.key, version: VERSION });
  assert.is(list.status, 404);
  const forOther = await create(other.key, { account_id: owner.accountId, name: 'x', variants: VARIANTS });
  assert.is(forOther.status, 404);
  const reader = await makeKey(app.db, { accountId: owner.accountId, statements: [{ effect: 'allow', actions: ['experiment:read'] }] });
  assert.is((await app.request('GET', `/experiments/${e.id}`, { token: reader.secret, version: VERSION })).status, 200);
  assert.is((await create(reader.secret, { account_id: owner.accountId, name: 'x', variants: VARIANTS })).status, 403);
  assert.is((await app.request('POST', `/experiments/${e.id}/end`, { token: reader.secret, version: VERSION, body: { findings: 'f' } })).status, 403);
  assert.is((await app.request('GET', `/experiments/expt_nosuch`, { token: owner.key, version: VERSION })).status, 404);
});

t('entry 28: before 2026-08-25 an experiment has no account_id and is evaluated for one opaque subject_id', async () => {
  const owner = await makeOwner(app.db);
  const e = await experiment(owner);
  const old = await app.request('GET', `/experiments/${e.id}`, { token: owner.key, version: BEFORE_28 });
  assert.is(old.status, 200);
  assert.not.ok('account_id' in old.body);
  const ev = await app.request('POST', `/experiments/${e.id}/evaluate`, { token: owner.key, version: BEFORE_28, body: { subject_id: 'visitor-9' } });
  assert.is(ev.status, 200, JSON.stringify(ev.body));
  const head = await app.request('POST', `/experiments/${e.id}/evaluate`, { token: owner.key, version: VERSION, body: { subject: { anonymous_id: 'visitor-9' } } });
  assert.is(ev.body.variant, head.body.variant);
  const subjectAtOld = await app.request('POST', `/experiments/${e.id}/evaluate`, { token: owner.key, version: BEFORE_28, body: { subject: { anonymous_id: 'x' } } });
  assert.is(subjectAtOld.status, 400);
  const subjectIdAtHead = await app.request('POST', `/experiments/${e.id}/evaluate`, { token: owner.key, version: VERSION, body: { subject_id: 'x' } });
  assert.is(subjectIdAtHead.status, 400);
});

t('entry 31: before 2026-08-21 ending without findings records a placeholder instead of a 400', async () => {
  const owner = await makeOwner(app.db);
  const e = await experiment(owner);
  const res = await app.request('POST', `/experiments/${e.id}/end`, { token: owner.key, version: BEFORE_31, body: {} });
  assert.is(res.status, 200, JSON.stringify(res.body));
  assert.equal([res.body.status, res.body.findings], ['ended', 'No findings recorded.']);
  const f = await experiment(owner);
  const given = await app.request('POST', `/experiments/${f.id}/end`, { token: owner.key, version: BEFORE_31, body: { findings: 'kept' } });
  assert.is(given.body.findings, 'kept');
});

t.run();
