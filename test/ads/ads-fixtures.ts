// An advertiser: an owner whose business balance (funded as asked) is its ads payment method, and the campaign
// tree the tests build over HTTP.
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { fundBalance } from '../helpers/ledger.js';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';

export type Owner = Awaited<ReturnType<typeof makeOwner>> & { ledger: string };

export async function advertiser(app: TestApp, funds = 0): Promise<Owner> {
  const o = await makeOwner(app.db);
  const ledger = funds > 0 ? await fundBalance(app.db, o.accountId, funds) : await ledgerOf(app.db, o.accountId);
  const res = await app.request('PATCH', `/accounts/${o.accountId}/preferences`, { token: o.key, body: { ads_payment_methods: { primary: { type: 'platform_balance', id: ledger } } } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return { ...o, ledger };
}

export const campaignBody = (o: Owner, extra: Record<string, unknown> = {}) =>
  ({ account_id: o.accountId, title: 'Spring sale', objective: 'traffic', platform: 'meta', budget_amount: 24000, ...extra });

export async function created(app: TestApp, o: Owner, path: string, body: Record<string, unknown>, version?: string) {
  const res = await app.request('POST', path, { token: o.key, body, version });
  assert.is(res.status, 201, `${path}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A campaign with one active group and one active ad, launched. */
export async function launchedTree(app: TestApp, o: Owner, campaign: Record<string, unknown> = {}) {
  const c = await created(app, o, '/ad_campaigns', campaignBody(o, campaign));
  const g = await created(app, o, '/ad_groups', { ad_campaign_id: c.id, title: 'Everyone' });
  const ad = await created(app, o, '/ads', { ad_group_id: g.id, title: 'Ad', headlines: [{ text: 'Half price' }] });
  const launched = await app.request('PATCH', `/ad_campaigns/${c.id}`, { token: o.key, body: { status: 'active' } });
  assert.is(launched.status, 200, JSON.stringify(launched.body));
  return { campaign: launched.body, group: g, ad };
}

const HOUR = 3_600_000;
/** The first hour a campaign launched now delivers, and the clock `n` hours of delivery later. */
export async function firstHour(app: TestApp, campaignId: string): Promise<number> {
  const row = await app.db('ad_campaigns').where({ id: campaignId }).first('launched_at');
  return Math.ceil(new Date(row.launched_at).getTime() / HOUR) * HOUR;
}
export const after = (start: number, hours: number) => new Date(start + hours * HOUR);

/** A connected external account with one post, as the external accounts area's connect job leaves them. */
export async function externalAccountWithPost(app: TestApp, accountId: string, platform = 'facebook') {
  const { newId } = await import('../../runtime/ids.js');
  const id = newId('sacc_');
  await app.db('external_accounts').insert({ id, account_id: accountId, platform, username: `shop${id.slice(-6).toLowerCase()}`, status: 'connected', connected_at: new Date() });
  const post = newId('xpost_');
  await app.db('external_account_posts').insert({ id: post, account_id: accountId, external_account_id: id, platform_post_id: `p${post}`, media_type: 'image', thumbnail_url: `https://cdn.example.com/${post}.jpg`, published_at: new Date() });
  return { id, post };
}

/** An audience of the given size, as the audiences area stores a built customer list. */
export async function audience(app: TestApp, accountId: string, size: number) {
  const { newId } = await import('../../runtime/ids.js');
  const id = newId('adaud_');
  await app.db('audiences').insert({ id, account_id: accountId, name: 'Customers', source_type: 'customer_list', size, status: 'ready' });
  return id;
}
