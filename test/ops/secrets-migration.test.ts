// migrations/510_secrets_at_rest.ts on a database written before it: secrets stored as the code before it stored
// them (a claim link's code, a tracking token, a receipt token, a webhook secret and a setup intent's client_secret,
// each in the clear) are hashed or sealed, and what was handed out before keeps working where it can.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { hashSecret } from '../../runtime/credentials.js';
import { randomToken } from '../../runtime/ids.js';
import { isSealed, unseal } from '../../runtime/sealed-secrets.js';
import { fundSide } from '../transfers/ledger-fixtures.js';
import { up } from '../../migrations/510_secrets_at_rest.js';

const t = suite('secrets at rest: the migration');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

const call = (method: string, path: string, token: string, body?: unknown) => app.request(method, path, { token, body, version: headVersion() });
const origin = () => new URL(app.url).origin;

t('claim codes, tokens and secrets stored in the clear before it are hashed or sealed; old codes still claim', async () => {
  const seller = await makeOwner(app.db);
  await fundSide(app.db, seller.accountId, 10_000);
  const link = (await call('POST', '/transfers', seller.key, { type: 'claim_link', origin_id: seller.accountId, amount: 500 })).body;
  const hook = (await call('POST', '/webhooks', seller.key, { account_id: seller.accountId, url: 'https://hooks.example/in' })).body;
  // The rows as the code before the migration wrote them: each secret in the clear.
  const [oldCode, oldTracking, oldReceipt] = [randomToken(32), randomToken(32), randomToken(32)];
  await app.db('transfers').where({ id: link.id }).update({ claim_code: oldCode, tracking_token: oldTracking }); // sql-state-write: the pre-migration row shape (secrets in the clear) that no product path writes any more
  await app.db('webhooks').where({ id: hook.id }).update({ secret: hook.secret }); // sql-state-write: the pre-migration row shape (secrets in the clear) that no product path writes any more
  const { client_id: clientId } = await app.db('accounts').where({ id: seller.accountId }).first('client_id');
  const ctok = (await call('POST', '/confirmation_tokens', clientId, { card: { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' } })).body;
  const payment = (await call('POST', '/payments', seller.key, {
    account_id: seller.accountId, amount: 1200, currency: 'usd', confirmation_token: ctok.id, user_id: (await makeUser(app.db)).id,
  })).body;
  assert.is((await call('POST', `/payments/${payment.id}/generate_pdf`, seller.key)).status, 200);
  await app.db('payment_receipts').where({ payment_id: payment.id }).update({ token: oldReceipt }); // sql-state-write: the pre-migration row shape (secrets in the clear) that no product path writes any more

  await up(app.db);

  const row = await app.db('transfers').where({ id: link.id }).first('claim_code', 'tracking_token');
  assert.is(row.claim_code, hashSecret(oldCode), 'the old code, hashed');
  assert.is.not(row.tracking_token, oldTracking);
  const stored = await app.db('webhooks').where({ id: hook.id }).first('secret');
  assert.ok(isSealed(stored.secret));
  assert.is(unseal(stored.secret), hook.secret);
  assert.is((await app.db('payment_receipts').where({ payment_id: payment.id }).first('token')).token, hashSecret(oldReceipt));
  assert.is((await fetch(`${origin()}/receipts/${oldReceipt}.pdf`)).status, 200, 'a receipt link handed out before still downloads');

  // The link as its origin reads it now: no claim_url (its code cannot be shown again), a new working tracking_url.
  const read = (await call('GET', `/transfers/${link.id}`, seller.key)).body;
  assert.is(read.claim_url, null);
  assert.is((await fetch(`${origin()}${new URL(read.tracking_url).pathname}`)).status, 200);
  assert.is((await fetch(`${origin()}/claim/${oldCode}`)).status, 200, 'the claim page of the old code');
  const claimant = await makeUser(app.db);
  assert.is((await call('POST', `/transfers/${link.id}/claim`, claimant.token, { code: randomToken(32) })).status, 404);
  const claimed = await call('POST', `/transfers/${link.id}/claim`, claimant.token, { code: oldCode });
  assert.is(claimed.status, 200, JSON.stringify(claimed.body));

  await up(app.db);
  assert.is((await app.db('transfers').where({ id: link.id }).first('claim_code')).claim_code, hashSecret(oldCode), 'run again, nothing changes');
});

t.run();
