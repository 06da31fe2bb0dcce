// client.ledgerAccounts and a user's wallet through the official client at its default pin (2026-07-20).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NotFoundError } from '@whop/sdk';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner, makeUser } from '../helpers/fixtures.js';
import { fundBalance } from '../helpers/ledger.js';
import { raw, rejects, sdk } from './sdk-helpers.js';

const t = suite('sdk: ledger accounts and wallets');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('ledgerAccounts.retrieve reads an account\'s balance; another account\'s is a NotFoundError', async () => {
  const o = await makeOwner(app.db);
  const ledger = await fundBalance(app.db, o.accountId, 4_200);
  const balance = raw(await sdk(app, o.key).ledgerAccounts.retrieve(ledger));
  assert.is(balance.id, ledger);
  assert.equal(balance.balances[0].available, { amount: 4_200, currency: 'usd', decimals: 2, display_decimals: 2 });
  const other = await makeOwner(app.db);
  await rejects(sdk(app, other.key).ledgerAccounts.retrieve(ledger), NotFoundError, 404);
});

t('users.retrieve at the client\'s pin shows the user their wallet as total_usd and balances', async () => {
  const alice = await makeUser(app.db);
  await fundBalance(app.db, alice.id, 1_050);
  const user = raw(await sdk(app, alice.token).users.retrieve(alice.id));
  assert.is(user.total_usd, '10.50');
  assert.is(user.balances[0].symbol, 'USD');
});

t.run();
