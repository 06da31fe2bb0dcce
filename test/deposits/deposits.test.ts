// POST /deposits, the simulated crypto network (POST /sandbox/crypto_network/transfers and its confirmation task)
// and GET /crypto_deposits: addresses, crediting once, the minimum, access and errors, at the latest version.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { verifyLedger } from '../../handlers/ledger/verify-ledger.js';
import { confirmDeposit } from '../../handlers/deposits/confirm-deposit.js';
import { joinTeam } from '../auth/team.js';
import { addressOf, balanceOf, send, txHash, VERSION } from './deposit-fixtures.js';

const t = suite('deposits');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const deposit = (token: string, body: Record<string, unknown>) => app.request('POST', '/deposits', { token, version: VERSION, body });
const ledgerClean = async () => {
  const report = await verifyLedger(app.db);
  assert.equal([report.mismatches, report.unbalancedEntries], [[], []]);
};

t('POST /deposits answers an address on every supported network, the same on every call', async () => {
  const o = await makeOwner(app.db);
  const res = await deposit(o.key, { destination: o.accountId, amount: '25.00' });
  assert.is(res.status, 200, JSON.stringify(res.body));
  const d = res.body;
  assert.equal([d.object, d.account_id, d.amount, d.hosted_url, d.methods.bank, 'metadata' in d], ['deposit', o.accountId, '25.00', null, null, false]);
  assert.equal(d.methods.crypto.map((m: any) => m.network), ['ethereum', 'base', 'polygon', 'solana']);
  for (const m of d.methods.crypto) {
    assert.match(m.address, m.network === 'solana' ? /^[1-9A-HJ-NP-Za-km-z]{44}$/ : /^0x[0-9a-f]{40}$/);
    assert.equal([m.minimum_amount, m.minimum_currency], ['10.00', 'usd']);
  }
  assert.equal(d.methods.crypto.find((m: any) => m.network === 'base').tokens, ['usdc']);
  const again = await deposit(o.token, { destination: o.accountId });
  assert.equal(again.body.methods.crypto.map((m: any) => m.address), d.methods.crypto.map((m: any) => m.address));
  assert.is(again.body.amount, null);
  const other = await makeOwner(app.db);
  const theirs = (await deposit(other.key, { destination: other.accountId })).body;
  assert.not.equal(theirs.methods.crypto[0].address, d.methods.crypto[0].address);
});

t('concurrent first calls make one address per network', async () => {
  const o = await makeOwner(app.db);
  const answers = await Promise.all(Array.from({ length: 6 }, () => deposit(o.key, { destination: o.accountId })));
  for (const a of answers) assert.is(a.status, 200, JSON.stringify(a.body));
  assert.is(new Set(answers.map((a) => a.body.methods.crypto[0].address)).size, 1);
  assert.is((await app.db('crypto_deposit_addresses').where({ owner_id: o.accountId })).length, 4);
});

t('a user deposits to their own wallet with their token; API keys and other users never reach it', async () => {
  const u = await makeUser(app.db);
  const res = await deposit(u.token, { destination: u.id });
  assert.equal([res.status, res.body.account_id], [200, u.id]);
  const o = await makeOwner(app.db);
  const byKey = await deposit(o.key, { destination: u.id });
  assert.equal([byKey.status, byKey.body.error.param], [404, 'destination']);
  const stranger = await makeUser(app.db);
  assert.is((await deposit(stranger.token, { destination: u.id })).status, 404);
  assert.is((await deposit(stranger.token, { destination: o.accountId })).status, 404);
  const sales = await makeKey(app.db, { accountId: o.accountId, role: 'sales_manager' });
  const refused = await deposit(sales.secret, { destination: o.accountId });
  assert.equal([refused.status, refused.body.error.type], [403, 'permission_denied']);
});

t('raw wallet addresses, object destinations, network and metadata are refused at the latest version', async () => {
  const o = await makeOwner(app.db);
  for (const destination of ['0x52908400098527886E0F7030069857D2E4169EE7', 'So1anaAddre55xxxxxxxxxxxxxxxxxxxxxxxxxxxx', { account_id: o.accountId }, '']) {
    const res = await deposit(o.key, { destination });
    assert.equal([res.status, res.body.error.param], [400, 'destination'], JSON.stringify(destination));
  }
  for (const extra of [{ network: 'ethereum' }, { metadata: { a: 1 } }]) {
    const res = await deposit(o.key, { destination: o.accountId, ...extra });
    assert.equal([res.status, res.body.error.param], [400, Object.keys(extra)[0]]);
  }
  assert.equal((await deposit(o.key, {})).body.error.param, 'destination');
  assert.is((await app.db('crypto_deposit_addresses').where({ owner_id: o.accountId })).length, 0);
});

t('a transfer to an address is pending, then confirmed and credited to the business balance once', async () => {
  const o = await makeOwner(app.db);
  const address = await addressOf(app, o.key, o.accountId);
  const d = await send(app, o.key, { network: 'ethereum', address, token: 'USDC', amount: '25.5' });
  assert.match(d.id, /^cdep_/);
  assert.equal([d.object, d.account_id, d.network, d.token, d.token_amount, d.amount, d.currency, d.status, d.settled_at],
    ['crypto_deposit', o.accountId, 'ethereum', 'usdc', '25.500000', '25.50', 'usd', 'pending', null]);
  assert.match(d.tx_hash, /^0x[0-9a-f]{64}$/);
  assert.is(await balanceOf(app, o.accountId), 0);
  assert.is(await confirmDeposit(app.db, d.id), 'confirmed');
  assert.is(await confirmDeposit(app.db, d.id), null); // a re-run job does nothing
  assert.is(await balanceOf(app, o.accountId), 2_550);
  assert.is(await balanceOf(app, 'platform', 'crypto_clearing') <= -2_550, true);
  const read = await app.request('GET', `/crypto_deposits/${d.id}`, { token: o.key, version: VERSION });
  assert.equal([read.status, read.body.status, read.body.status_detail], [200, 'confirmed', 'Confirmed and credited.']);
  assert.ok(read.body.settled_at);
  const events = await app.db('events').whereRaw("data->>'id' = ?", [d.id]).orderBy('created_at').select('type', 'account_id');
  assert.equal(events.map((e) => [e.type, e.account_id]), [['crypto_deposit.created', o.accountId], ['crypto_deposit.confirmed', o.accountId]]);
  assert.is((await app.db('ledger_postings').where({ entry_id: `${d.id}:credited` })).length, 2);
  await ledgerClean();
});

t('the network reporting one transaction twice, even concurrently, makes one deposit credited once', async () => {
  const o = await makeOwner(app.db);
  const address = await addressOf(app, o.key, o.accountId, 'solana');
  const tx_hash = txHash();
  const body = { network: 'solana', address, token: 'usdt', amount: '40', tx_hash };
  const reports = await Promise.all(Array.from({ length: 8 }, () =>
    app.request('POST', '/sandbox/crypto_network/transfers', { token: o.key, version: VERSION, body })));
  for (const r of reports) assert.is(r.status, 201, JSON.stringify(r.body));
  assert.is(new Set(reports.map((r) => r.body.id)).size, 1);
  const id = reports[0].body.id;
  const confirmed = await Promise.all([confirmDeposit(app.db, id), confirmDeposit(app.db, id), confirmDeposit(app.db, id)]);
  assert.equal(confirmed.filter(Boolean), ['confirmed']);
  const later = await send(app, o.key, body);
  assert.equal([later.id, later.status], [id, 'confirmed']);
  assert.is(await confirmDeposit(app.db, id), null);
  assert.is(await balanceOf(app, o.accountId), 4_000);
  assert.is((await app.db('crypto_deposits').where({ tx_hash })).length, 1);
  const changed = await send(app, o.key, { ...body, amount: '41' }, 409);
  assert.equal([changed.error.type, changed.error.param], ['conflict', 'tx_hash']);
  // Another network may carry the same hash: a different transaction.
  const eth = await addressOf(app, o.key, o.accountId, 'ethereum');
  const other = await send(app, o.key, { network: 'ethereum', address: eth, token: 'usdc', amount: '12', tx_hash });
  assert.not.equal(other.id, id);
  await ledgerClean();
});

t('under the 10 USD minimum: recorded below_minimum with an event, never credited, listed for the owner', async () => {
  const o = await makeOwner(app.db);
  const address = await addressOf(app, o.key, o.accountId, 'base');
  const small = await send(app, o.key, { network: 'base', address, token: 'usdc', amount: '9.999999' });
  assert.is(small.amount, '9.99'); // rounded down to the cent
  assert.is(await confirmDeposit(app.db, small.id), 'below_minimum');
  const exact = await send(app, o.key, { network: 'base', address, token: 'usdc', amount: '10.004' });
  assert.is(await confirmDeposit(app.db, exact.id), 'confirmed');
  assert.is(await balanceOf(app, o.accountId), 1_000);
  const read = (await app.request('GET', `/crypto_deposits/${small.id}`, { token: o.key, version: VERSION })).body;
  assert.equal([read.status, read.status_detail], ['below_minimum', 'Worth less than the 10.00 USD minimum: recorded, not credited.']);
  assert.is((await app.db('ledger_postings').where('entry_id', 'like', `${small.id}%`)).length, 0);
  const event = await app.db('events').where({ type: 'crypto_deposit.below_minimum' }).whereRaw("data->>'id' = ?", [small.id]).first();
  assert.is(event.account_id, o.accountId);
  const below = await app.request('GET', '/crypto_deposits', { token: o.key, version: VERSION, query: { account_id: o.accountId, status: 'below_minimum' } });
  assert.equal(below.body.data.map((x: any) => x.id), [small.id]);
  const all = await app.request('GET', '/crypto_deposits', { token: o.key, version: VERSION });
  assert.equal(all.body.data.map((x: any) => x.id), [exact.id, small.id]);
});

t('a wallet deposit credits the personal wallet; only its user reads it', async () => {
  const u = await makeUser(app.db);
  const address = await addressOf(app, u.token, u.id, 'polygon');
  const d = await send(app, u.token, { network: 'polygon', address, token: 'usdc', amount: '15' });
  assert.is(await confirmDeposit(app.db, d.id), 'confirmed');
  assert.is(await balanceOf(app, u.id), 1_500);
  const event = await app.db('events').where({ type: 'crypto_deposit.confirmed' }).whereRaw("data->>'id' = ?", [d.id]).first();
  assert.is(event.account_id, null);
  const listed = await app.request('GET', '/crypto_deposits', { token: u.token, version: VERSION });
  assert.equal(listed.body.data.map((x: any) => x.id), [d.id]);
  const o = await makeOwner(app.db);
  const byKey = await app.request('GET', `/crypto_deposits/${d.id}`, { token: o.key, version: VERSION });
  assert.equal([byKey.status, byKey.body.error.message, byKey.body.error.param], [404, `No such crypto deposit: '${d.id}'`, 'id']);
  const wallet = await app.request('GET', '/crypto_deposits', { token: o.key, version: VERSION, query: { account_id: u.id } });
  assert.equal([wallet.status, wallet.body.error.message, wallet.body.error.param], [404, `No such user: '${u.id}'`, 'account_id']);
  const account = await app.request('GET', '/crypto_deposits', { token: u.token, version: VERSION, query: { account_id: o.accountId } });
  assert.equal([account.status, account.body.error.message, account.body.error.param], [404, `No such account: '${o.accountId}'`, 'account_id']);
  assert.is((await app.request('GET', `/crypto_deposits/${d.id}`, { token: (await makeUser(app.db)).token, version: VERSION })).status, 404);
});

t('the sandbox refuses unknown networks, tokens a network lacks, unknown or others\' addresses and zero amounts', async () => {
  const o = await makeOwner(app.db);
  const address = await addressOf(app, o.key, o.accountId, 'base');
  const cases: [Record<string, unknown>, number, string][] = [
    [{ network: 'bitcoin', address, token: 'usdc', amount: '20' }, 400, 'network'],
    [{ network: 'base', address, token: 'usdt', amount: '20' }, 400, 'token'],
    [{ network: 'ethereum', address, token: 'usdc', amount: '20' }, 404, 'address'],
    [{ network: 'base', address: `0x${'1'.repeat(40)}`, token: 'usdc', amount: '20' }, 404, 'address'],
    [{ network: 'base', address, token: 'usdc', amount: '0.000000' }, 400, 'amount'],
    [{ network: 'base', address, token: 'usdc', amount: '1.1234567' }, 400, 'amount'],
    [{ network: 'base', address, token: 'usdc', amount: '20', tx_hash: 'short' }, 400, 'tx_hash'],
  ];
  for (const [body, status, param] of cases) {
    const res = await send(app, o.key, body, status);
    assert.is(res.error.param, param, JSON.stringify(body));
  }
  const other = await makeOwner(app.db);
  const res = await send(app, other.key, { network: 'base', address, token: 'usdc', amount: '20' }, 404);
  assert.is(res.error.param, 'address');
  assert.is((await app.db('crypto_deposits').where({ owner_id: o.accountId })).length, 0);
});

t('lists page by keyset and need company:balance:read', async () => {
  const o = await makeOwner(app.db);
  const address = await addressOf(app, o.key, o.accountId);
  const ids = [];
  for (let i = 0; i < 3; i++) ids.push((await send(app, o.key, { network: 'ethereum', address, token: 'usdc', amount: `${20 + i}` })).id);
  const first = await app.request('GET', '/crypto_deposits', { token: o.key, version: VERSION, query: { first: 2 } });
  assert.equal([first.body.data.map((x: any) => x.id), first.body.page_info.has_next_page], [[ids[2], ids[1]], true]);
  const next = await app.request('GET', '/crypto_deposits', { token: o.key, version: VERSION, query: { first: 2, after: first.body.page_info.end_cursor } });
  assert.equal(next.body.data.map((x: any) => x.id), [ids[0]]);
  const sales = await makeKey(app.db, { accountId: o.accountId, role: 'sales_manager' });
  // A key is refused before the operation (it holds the scope nowhere); a team member, on the deposits' account.
  const member = await joinTeam(app, o.token, o.accountId, 'sales_manager');
  for (const path of ['/crypto_deposits', `/crypto_deposits/${ids[0]}`]) {
    const byKey = await app.request('GET', path, { token: sales.secret, version: VERSION });
    assert.equal([byKey.status, byKey.body.error.message], [403, 'This credential lacks the company:balance:read permission'], path);
    const byMember = await app.request('GET', path, { token: member.token, version: VERSION, query: path === '/crypto_deposits' ? { account_id: o.accountId } : undefined });
    assert.equal([byMember.status, byMember.body.error.message], [403, `This credential lacks the company:balance:read permission on ${o.accountId}`], path);
  }
  assert.is((await app.request('GET', '/crypto_deposits/cdep_nothing', { token: o.key, version: VERSION })).status, 404);
});

t.run();
