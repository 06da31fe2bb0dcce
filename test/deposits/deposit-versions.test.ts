// Entry 32 at an older pin: the object destination, a top-level network and metadata (answered empty); wallet
// addresses refused there too. And the crypto network's confirmation on the real worker.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { addressOf, balanceOf, PIN, send, VERSION } from './deposit-fixtures.js';

const t = suite('deposits at older versions, and on the worker');
let app: TestApp;
t.before(async () => {
  process.env.CRYPTO_NETWORK_SECONDS = '0';
  app = await startTestApp({ worker: true });
});
t.after(async () => { await app.close(); });

const deposit = (token: string, body: Record<string, unknown>, version = PIN) => app.request('POST', '/deposits', { token, version, body });

t('before 2026-08-21 the destination may be an object, network narrows the answer and metadata is answered empty', async () => {
  const o = await makeOwner(app.db);
  const latest = (await deposit(o.key, { destination: o.accountId }, VERSION)).body;
  const asString = await deposit(o.key, { destination: o.accountId, metadata: { order: '42' } });
  assert.is(asString.status, 200, JSON.stringify(asString.body));
  assert.equal([asString.body.account_id, asString.body.metadata, asString.body.methods.crypto.length], [o.accountId, {}, 4]);
  assert.equal(asString.body.methods.crypto.map((m: any) => m.address), latest.methods.crypto.map((m: any) => m.address));
  const asObject = await deposit(o.key, { destination: { account_id: o.accountId }, network: 'solana' });
  assert.is(asObject.status, 200, JSON.stringify(asObject.body));
  assert.equal(asObject.body.methods.crypto.map((m: any) => [m.network, m.address]),
    [['solana', latest.methods.crypto.find((m: any) => m.network === 'solana').address]]);
  assert.equal(asObject.body.metadata, {});
  const inner = await deposit(o.key, { destination: { account_id: o.accountId, network: 'base' } });
  assert.equal(inner.body.methods.crypto.map((m: any) => m.network), ['base']);
  const nullNetwork = await deposit(o.key, { destination: o.accountId, network: null });
  assert.is(nullNetwork.body.methods.crypto.length, 4);
});

t('before 2026-08-21 wallet addresses are refused too, in either form, naming destination', async () => {
  const o = await makeOwner(app.db);
  const address = await addressOf(app, o.key, o.accountId);
  for (const destination of [address, { address, network: 'ethereum' }, { account_id: o.accountId, address }, { id: o.accountId }, 42, null]) {
    const res = await deposit(o.key, { destination });
    assert.equal([res.status, res.body.error.param], [400, 'destination'], JSON.stringify(destination));
  }
  const unknown = await deposit(o.key, { destination: o.accountId, network: 'bitcoin' });
  assert.equal([unknown.status, unknown.body.error.param], [400, 'network']);
  const u = await makeUser(app.db);
  assert.equal((await deposit(o.key, { destination: { account_id: u.id } })).status, 404);
  assert.equal((await deposit(u.token, { destination: { account_id: u.id } })).body.account_id, u.id);
});

t('the worker confirms a reported transfer and credits it', async () => {
  const o = await makeOwner(app.db);
  const address = await addressOf(app, o.key, o.accountId, 'base');
  const d = await send(app, o.key, { network: 'base', address, token: 'usdc', amount: '30' });
  const done = await until(async () => {
    const res = await app.request('GET', `/crypto_deposits/${d.id}`, { token: o.key, version: VERSION });
    return res.body.status === 'confirmed' ? res.body : null;
  }, 'the deposit to be confirmed');
  assert.is(done.amount, '30.00');
  assert.is(await balanceOf(app, o.accountId), 3_000);
  const earlier = await app.request('GET', `/crypto_deposits/${d.id}`, { token: o.key, version: PIN });
  assert.equal([earlier.status, earlier.body.status], [200, 'confirmed']);
});

t.run();
