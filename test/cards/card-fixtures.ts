// Accounts with a card and money on their cards balance, through the API (the business balance is funded as a
// cleared payment would be, then topped up into the cards balance).
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { makeOwner } from '../helpers/fixtures.js';
import { fundBalance } from '../helpers/ledger.js';

export const VERSION = headVersion();

export const balanceOf = async (app: TestApp, ledger: string | undefined, bucket = 'available') =>
  ledger ? Number((await app.db('ledger_balances').where({ ledger_id: ledger, currency: 'usd', bucket }).first('amount'))?.amount ?? 0) : 0;

export const cardsLedger = async (app: TestApp, accountId: string): Promise<string | undefined> =>
  (await app.db('ledger_accounts').where({ account_id: accountId, kind: 'cards' }).first('id'))?.id;

export const businessLedger = async (app: TestApp, accountId: string): Promise<string | undefined> =>
  (await app.db('ledger_accounts').where({ account_id: accountId, kind: 'business' }).first('id'))?.id;

export async function requestCard(app: TestApp, token: string, body: Record<string, unknown>) {
  const res = await app.request('POST', '/cards', { token, version: VERSION, body });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

export async function topUp(app: TestApp, token: string, accountId: string, amount: number) {
  const res = await app.request('POST', '/card_top_ups', { token, version: VERSION, body: { account_id: accountId, amount } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** An owner with `funds` on the business balance, a card, and `cards` topped up onto the cards balance. */
export async function cardOwner(app: TestApp, { funds = 100_000, cards = 50_000 } = {}) {
  const o = await makeOwner(app.db);
  const business = await fundBalance(app.db, o.accountId, funds);
  const card = await requestCard(app, o.key, { account_id: o.accountId, name: 'Ads' });
  if (cards > 0) await topUp(app, o.key, o.accountId, cards);
  return { ...o, business, card, cardsLedger: (await cardsLedger(app, o.accountId))! };
}

export async function authorizePurchase(app: TestApp, token: string, body: Record<string, unknown>, version = VERSION) {
  return app.request('POST', '/sandbox/card_network/authorizations', { token, version, body: { merchant_name: 'Coffee Shop', ...body } });
}
