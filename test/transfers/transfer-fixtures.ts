// Sides with money for the transfers tests: business accounts with an admin key and an owner, users with a token,
// and balances funded through the ledger's own posting function (as a settled deposit would fund them).
import * as assert from 'uvu/assert';
import type { Knex } from 'knex';
import type { TestApp } from '../helpers/harness.js';
import { makeKey, makeOwner, makeUser } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';
import { fundSide, availableOf, heldOf } from './ledger-fixtures.js';

export const VERSION = headVersion();
export const PIN = '2026-07-20';

export const usd = (amount: number) => ({ amount, currency: 'usd', decimals: 2, display_decimals: 2 });

/** A business account with an owner (user token) and an admin API key, funded with `funds` available USD cents. */
export async function makeBusiness(app: TestApp, funds = 0, title?: string) {
  const o = await makeOwner(app.db, title ? { title } : {});
  if (funds) await fundSide(app.db, o.accountId, funds);
  return o;
}

/** A user with a token and a personal wallet funded with `funds` available USD cents. */
export async function makeWalletUser(app: TestApp, funds = 0, name?: string) {
  const u = await makeUser(app.db, name);
  if (funds) await fundSide(app.db, u.id, funds);
  return u;
}

export async function keyWithRole(db: Knex, accountId: string, role: string) {
  return (await makeKey(db, { accountId, role })).secret;
}

export async function transfer(app: TestApp, token: string, body: Record<string, unknown>, o: { version?: string; idempotencyKey?: string; status?: number } = {}) {
  const res = await app.request('POST', '/transfers', { token, version: o.version ?? VERSION, body, idempotencyKey: o.idempotencyKey });
  assert.is(res.status, o.status ?? 201, JSON.stringify(res.body));
  return res.body;
}

export async function claim(app: TestApp, token: string, id: string, code?: string) {
  return app.request('POST', `/transfers/${id}/claim`, { token, version: VERSION, body: code === undefined ? {} : { code } });
}

/** The code at the end of a claim link's claim_url. */
export const codeOf = (link: { claim_url: string }) => link.claim_url.split('/').pop()!;

export { availableOf, heldOf, fundSide };
