// A partner and an account it referred, made over HTTP with affiliate_code.
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { makeKey, makeUser } from '../helpers/fixtures.js';
import { headVersion } from '../../runtime/versions.js';

/** The partner, the referred account with an admin key and its client id, and the partner business. */
export async function referred(app: TestApp, affiliateCode?: (username: string) => string) {
  const partner = await makeUser(app.db);
  const owner = await makeUser(app.db);
  const code = affiliateCode ? affiliateCode(partner.user.username) : partner.user.username;
  const res = await app.request('POST', '/accounts', { token: owner.token, version: headVersion(), body: { title: 'Referred shop', affiliate_code: code } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  const accountId = res.body.id as string;
  const key = (await makeKey(app.db, { accountId, role: 'admin' })).secret;
  const { client_id } = await app.db('accounts').where({ id: accountId }).first('client_id');
  const business = await app.db('partner_businesses').where({ account_id: accountId }).first();
  return { partner, accountId, key, clientId: client_id as string, businessId: business.id as string };
}
