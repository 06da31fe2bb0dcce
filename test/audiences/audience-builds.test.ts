// Building audiences on the sandbox network over HTTP: created pending, built by the build_audience job (members
// lists at once; CSV file lists in batches of 500 rows, resumable), ready, partial or failed, with rows, progress,
// match rates and the network's id; the create rules of file lists; lookalikes need a built source; delivery's reach
// counts built audiences only; audience_id and status filters; the official client's pin sees the same fields.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import type { TestApp } from '../helpers/harness.js';
import { startAppWithStore, type FileEnv } from '../files/file-env.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { ensureMember } from '../../handlers/members/member-service.js';
import { buildAudience } from '../../handlers/audiences/build.js';
import { buildQueued } from './audience-fixtures.js';
import { jobsOf } from '../payments/payment-fixtures.js';

const t = suite('audience builds');
let app: TestApp;
let env: { close(): Promise<void>; env: FileEnv };
t.before(async () => { const s = await startAppWithStore(); app = s.app; env = s; });
t.after(async () => { await env.close(); });

type Owner = Awaited<ReturnType<typeof makeOwner>>;
const create = (o: Owner, body: Record<string, unknown>, version?: string) =>
  app.request('POST', '/audiences', { token: o.key, version, body: { account_id: o.accountId, name: 'List', ...body } });
const get = (o: Owner, id: string, version?: string) => app.request('GET', `/audiences/${id}`, { token: o.key, version });

async function file(o: Owner, filename: string, bytes: string | null): Promise<string> {
  const f = await app.request('POST', '/files', { token: o.key, body: { filename } });
  assert.is(f.status, 201, JSON.stringify(f.body));
  if (bytes !== null) assert.is((await fetch(f.body.upload_url, { method: 'PUT', body: bytes, headers: f.body.upload_headers })).status, 200);
  return f.body.id;
}

/** The network's model, restated: a usable identifier matches when its SHA-256's first byte is below 179. */
const matchesOf = (ids: string[]) => ids.filter((x) => createHash('sha256').update(x).digest()[0]! < 179).length;
const emails = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `Person${i}.${tag}@Example.com`);

t('a members list: pending until built, then ready with every member matched; match rate from 20 rows', async () => {
  const o = await makeOwner(app.db);
  for (let i = 0; i < 20; i++) await ensureMember(app.db, o.accountId, (await makeUser(app.db)).id);
  const res = await create(o, { source_type: 'customer_list' });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.equal([res.body.status, res.body.size, res.body.progress_percent, res.body.total_rows, res.body.platform_audience_ids, res.body.file_id, res.body.column_mapping, res.body.error_message],
    ['pending', 20, 0, 0, [], null, null, null]);
  assert.equal(res.body.match_rates, [{ platform: 'meta', status: 'calculating', lower_bound: null, upper_bound: null }]);
  await buildQueued(app, res.body.id);
  const built = (await get(o, res.body.id)).body;
  assert.equal([built.status, built.total_rows, built.processed_rows, built.matched_rows, built.progress_percent], ['ready', 20, 20, 20, 100]);
  assert.equal(built.match_rates, [{ platform: 'meta', status: 'available', lower_bound: 90, upper_bound: 100 }]);
  assert.match(built.platform_audience_ids[0], /^\d{13}$/);
  await buildAudience(app.db, res.body.id);
  assert.equal((await get(o, res.body.id)).body, built, 'a second run changes nothing');
  // Engagement and lookalike audiences build too, without rows or match rates.
  const like = await create(o, { source_type: 'lookalike', source_audience_id: res.body.id });
  assert.equal([like.body.status, like.body.match_rates], ['pending', []]);
  await buildQueued(app, like.body.id);
  const likeBuilt = (await get(o, like.body.id)).body;
  assert.equal([likeBuilt.status, likeBuilt.size, likeBuilt.total_rows, likeBuilt.match_rates], ['ready', 2000, 0, []]);
});

t('a CSV file list: matched by the documented model in batches; a run cut short resumes; partial with unusable rows', async () => {
  const o = await makeOwner(app.db);
  const people = emails(1199, 'a');
  const rows = people.map((e, i) => `"${e}",${i % 3 === 0 ? '+1 (555) 010-' + String(i).padStart(4, '0') : ''},"Name, ${i}"`);
  const csv = ['Email,Phone,First Name', ...rows, ',,"no identifier"', 'not-an-email,12,"too short"'].join('\r\n') + '\r\n';
  const id = await file(o, 'list.csv', csv);
  const res = await create(o, { source_type: 'customer_list', file_id: id, column_mapping: { email: 'email', phone: 'PHONE', first_name: 'First Name' } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.equal([res.body.status, res.body.size, res.body.file_id, res.body.column_mapping], ['pending', 0, id,
    { email: 'email', phone: 'PHONE', first_name: 'First Name', last_name: null, country: null }]);
  assert.is((await jobsOf(app, 'build_audience', res.body.id)).length, 1);

  await buildAudience(app.db, res.body.id, 1); // the first batch commits, then the process "dies"
  const halfway = (await get(o, res.body.id)).body;
  assert.equal([halfway.status, halfway.total_rows, halfway.processed_rows, halfway.progress_percent, halfway.match_rates[0].status],
    ['processing', 1201, 500, 41, 'calculating']);
  await buildQueued(app, res.body.id);
  const built = (await get(o, res.body.id)).body;
  const matched = matchesOf(people.map((e) => e.toLowerCase()));
  assert.equal([built.status, built.total_rows, built.processed_rows, built.matched_rows, built.size, built.progress_percent],
    ['partial', 1201, 1201, matched, matched, 100]);
  const lower = Math.floor((matched * 10) / 1199) * 10;
  assert.equal(built.match_rates, [{ platform: 'meta', status: 'available', lower_bound: lower, upper_bound: lower + 10 }]);

  // Phones alone match by their digits.
  const phones = Array.from({ length: 25 }, (_, i) => `555-01${String(i).padStart(2, '0')}-99`);
  const byPhone = await create(o, { source_type: 'customer_list', file_id: await file(o, 'phones.csv', ['phone', ...phones].join('\n')), column_mapping: { phone: 'phone' } });
  await buildQueued(app, byPhone.body.id);
  const phoneBuilt = (await get(o, byPhone.body.id)).body;
  assert.equal([phoneBuilt.status, phoneBuilt.matched_rows], ['ready', matchesOf(phones.map((p) => p.replace(/\D/g, '')))]);
});

t('failed builds: a mapped column not in the header, no usable row, an unreadable file; under 20 rows no match rate', async () => {
  const o = await makeOwner(app.db);
  const fail = async (csv: string, mapping: Record<string, string>, message: RegExp) => {
    const res = await create(o, { source_type: 'customer_list', file_id: await file(o, 'l.csv', csv), column_mapping: mapping });
    await buildQueued(app, res.body.id);
    const b = (await get(o, res.body.id)).body;
    assert.equal([b.status, b.size, b.platform_audience_ids, b.match_rates[0].status], ['failed', 0, [], 'unavailable']);
    assert.match(b.error_message, message);
  };
  await fail('email\na@b.co\n', { email: 'email', phone: 'mobile' }, /column_mapping\.phone names 'mobile'/);
  await fail('email\nnobody\n\n', { email: 'email' }, /No row has a usable email or phone/);
  await fail('email\n"a@b.co\n', { email: 'email' }, /cannot be read as CSV/);
  const small = await create(o, { source_type: 'customer_list', file_id: await file(o, 's.csv', ['email', ...emails(5, 's')].join('\n')), column_mapping: { email: 'email' } });
  await buildQueued(app, small.body.id);
  const s = (await get(o, small.body.id)).body;
  assert.equal([s.status, s.total_rows, s.match_rates], ['ready', 5, [{ platform: 'meta', status: 'unavailable', lower_bound: null, upper_bound: null }]]);
});

t('create rules: file_id and column_mapping by source_type, the file the account\'s ready CSV; lookalikes need a built source', async () => {
  const o = await makeOwner(app.db);
  const other = await makeOwner(app.db);
  const csv = await file(o, 'ok.csv', 'email\na@b.co\n');
  const refuse = async (body: Record<string, unknown>, status: number, param: string) => {
    const res = await create(o, body);
    assert.equal([res.status, res.body.error?.param], [status, param], JSON.stringify(res.body));
  };
  await refuse({ source_type: 'customer_list', file_id: csv }, 400, 'column_mapping');
  await refuse({ source_type: 'customer_list', file_id: csv, column_mapping: { first_name: 'name' } }, 400, 'column_mapping');
  await refuse({ source_type: 'customer_list', column_mapping: { email: 'email' } }, 400, 'column_mapping');
  await refuse({ source_type: 'customer_list', file_id: await file(other, 'theirs.csv', 'email\n'), column_mapping: { email: 'email' } }, 404, 'file_id');
  await refuse({ source_type: 'customer_list', file_id: await file(o, 'later.csv', null), column_mapping: { email: 'email' } }, 400, 'file_id');
  await refuse({ source_type: 'customer_list', file_id: await file(o, 'pic.png', 'png'), column_mapping: { email: 'email' } }, 400, 'file_id');
  await refuse({ source_type: 'customer_list', file_id: 'sacc_x', column_mapping: { email: 'email' } }, 400, 'file_id');
  await refuse({ source_type: 'customer_list', file_id: csv, column_mapping: { email: '' } }, 400, 'column_mapping.email');
  await refuse({ source_type: 'lookalike', file_id: csv }, 400, 'file_id');
  const pending = await create(o, { source_type: 'customer_list', file_id: csv, column_mapping: { email: 'email' } });
  await refuse({ source_type: 'lookalike', source_audience_id: pending.body.id }, 400, 'source_audience_id');
  await buildQueued(app, pending.body.id);
  const failedList = await create(o, { source_type: 'customer_list', file_id: await file(o, 'bad.csv', 'email\nnope\n'), column_mapping: { email: 'email' } });
  await buildQueued(app, failedList.body.id);
  await refuse({ source_type: 'lookalike', source_audience_id: failedList.body.id }, 400, 'source_audience_id');
  assert.is((await create(o, { source_type: 'lookalike', source_audience_id: pending.body.id })).status, 201);
});

t('reach counts built audiences only; audience_id and status filters; the official client\'s pin sees the build', async () => {
  const o = await makeOwner(app.db);
  for (let i = 0; i < 12; i++) await ensureMember(app.db, o.accountId, (await makeUser(app.db)).id);
  const list = await create(o, { source_type: 'customer_list' });
  const like = async () => (await app.request('POST', '/ad_groups/estimate_reach', { token: o.key, body: { account_id: o.accountId, platform: 'meta', audiences: { include: [lookalikeId] } } })).body;
  await buildQueued(app, list.body.id);
  const lookalike = await create(o, { source_type: 'lookalike', source_audience_id: list.body.id });
  const lookalikeId = lookalike.body.id;
  assert.equal(await like(), { users_lower_bound: null, users_upper_bound: null }, 'a pending audience reaches no one');
  await buildQueued(app, lookalikeId);
  assert.equal(await like(), { users_lower_bound: 1080, users_upper_bound: 1320 }, '12 x 100 x 1% = 1,200 people');

  const pending = await create(o, { source_type: 'customer_list', name: 'Later' });
  const ready = await app.request('GET', '/audiences', { token: o.key, query: { account_id: o.accountId, status: 'ready' } });
  assert.equal(ready.body.data.map((a: any) => a.id), [lookalikeId, list.body.id]);
  const one = await app.request('GET', '/audiences', { token: o.key, query: { account_id: o.accountId, audience_id: pending.body.id } });
  assert.equal(one.body.data.map((a: any) => [a.id, a.status]), [[pending.body.id, 'pending']]);

  // 2026-07-20 (the official client's pin): audience_type custom, the same build fields; a file list created there.
  const csv = await file(o, 'pin.csv', ['email', ...emails(3, 'p')].join('\n'));
  const old = await create(o, { audience_type: 'custom', file_id: csv, column_mapping: { email: 'email' } }, '2026-07-20');
  assert.is(old.status, 201, JSON.stringify(old.body));
  assert.equal([old.body.audience_type, old.body.status, old.body.file_id, old.body.match_rates[0].status], ['custom', 'pending', csv, 'calculating']);
  await buildQueued(app, old.body.id);
  const oldBuilt = (await get(o, old.body.id, '2026-07-20')).body;
  assert.equal([oldBuilt.audience_type, oldBuilt.status, oldBuilt.total_rows, oldBuilt.progress_percent], ['custom', 'ready', 3, 100]);
  const filtered = await app.request('GET', '/audiences', { token: o.key, version: '2026-07-20', query: { account_id: o.accountId, audience_id: old.body.id } });
  assert.equal(filtered.body.data.map((a: any) => a.id), [old.body.id]);
});

t.run();
