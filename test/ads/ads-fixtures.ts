// An advertiser: an owner whose business balance (funded as asked) is its ads payment method, and the campaign
// tree the tests build over HTTP.
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { fundBalance } from '../helpers/ledger.js';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';
import { connectedAccount } from '../external_accounts/external-account-fixtures.js';

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

/** A connected external account and one of its posts, through the product: POST /external_accounts and the
 * connect job (the sandbox network brings the handle's posts in), then GET /external_accounts/{id}/posts. */
export async function externalAccountWithPost(app: TestApp, o: { key: string; accountId: string }, platform = 'facebook') {
  const account = await connectedAccount(app, o.key, o.accountId, { platform });
  assert.is(account.status, 'connected', JSON.stringify(account));
  const posts = await app.request('GET', `/external_accounts/${account.id}/posts`, { token: o.key });
  assert.is(posts.status, 200, JSON.stringify(posts.body));
  const post = posts.body.data[0];
  return { id: account.id as string, post: post.id as string, thumbnail: post.thumbnail_url as string | null };
}

/** An audience of the given size, as the audiences area stores a built customer list. */
export async function audience(app: TestApp, accountId: string, size: number) {
  const { newId } = await import('../../runtime/ids.js');
  const id = newId('adaud_');
  await app.db('audiences').insert({ id, account_id: accountId, name: 'Customers', source_type: 'customer_list', size, status: 'ready' }); // sql-state-write: sizes of tens of thousands would need that many customer-list rows built by the audiences job; these tests need only a built audience's size
  return id;
}
