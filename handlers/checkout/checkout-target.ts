// What a checkout link sells, from its path: /p/<variant id>, /q/<short_link> or /c/<configuration id>
// (handlers/checkout_configurations/purchase-url.ts). A link that sells nothing any more says why.
import type { Knex } from 'knex';
import { CHECKOUT_PATH } from '../checkout_configurations/index.js';

export type LinkKind = 'p' | 'q' | 'c';

export interface CheckoutVariant {
  id: string;
  title: string | null;
  plan_type: 'renewal' | 'one_time';
  currency: string;
  renewal_price: string | number | null;
  billing_period_days: number | null;
  trial_period_days: number | null;
  product_id: string;
  product_title: string;
}

export interface CheckoutTarget {
  /** the link's own path, where the page posts to and where a buyer starts again */
  path: string;
  /** the seller; clock_id: the sandbox clock it runs on, or null */
  account: { id: string; title: string; client_id: string; clock_id: string | null };
  /** the checkout configuration of a /c/ link; null for a variant's own link */
  configuration: { id: string; mode: 'payment' | 'setup'; redirect_url: string | null; three_d_secure_policy: string | null } | null;
  mode: 'payment' | 'setup';
  /** the variant sold; null in setup mode */
  variant: CheckoutVariant | null;
}

/** Why a link shows no checkout: the page's status and its sentence. */
export interface Refusal { status: 404 | 410; title: string; message: string }

const unknown = (what: string): Refusal => ({ status: 404, title: 'Checkout not found', message: `This checkout link does not exist: no ${what} has it, or it was deleted.` });
const retired = (message: string): Refusal => ({ status: 410, title: 'No longer sold', message });

async function variantOf(db: Knex, where: { id: string } | { short_link: string }): Promise<CheckoutVariant & { account_id: string; visibility: string; product_visibility: string } | undefined> {
  const column = 'id' in where ? 'v.id' : 'v.short_link';
  return db('plans as v').join('products as p', 'p.id', 'v.product_id')
    .where(column, 'id' in where ? where.id : where.short_link).whereNull('v.deleted_at').whereNull('p.deleted_at')
    .first('v.id', 'v.account_id', 'v.title', 'v.plan_type', 'v.currency', 'v.renewal_price', 'v.billing_period_days',
      'v.trial_period_days', 'v.visibility', 'v.product_id', 'p.title as product_title', 'p.visibility as product_visibility');
}

export async function checkoutTarget(db: Knex, kind: LinkKind, ref: string): Promise<CheckoutTarget | Refusal> {
  let configuration: CheckoutTarget['configuration'] = null;
  let planId: string | null = null;
  let accountId: string;
  if (kind === 'c') {
    const row = await db('checkout_configurations').where({ id: ref }).whereNull('deleted_at')
      .first('id', 'account_id', 'mode', 'plan_id', 'redirect_url', 'three_d_secure_policy');
    if (!row) return unknown('checkout configuration');
    configuration = { id: row.id, mode: row.mode, redirect_url: row.redirect_url, three_d_secure_policy: row.three_d_secure_policy };
    planId = row.plan_id;
    accountId = row.account_id;
  }
  let variant: CheckoutVariant | null = null;
  if (kind !== 'c' || planId) {
    const row = await variantOf(db, kind === 'q' ? { short_link: ref } : { id: planId ?? ref });
    if (!row && kind === 'c') return retired('The variant this checkout link sells was deleted: it is no longer sold.');
    if (!row) return unknown('variant');
    // Archived is "no longer sold" (spec/areas/products.yaml, variants.yaml): the link stays, the sale does not.
    if (row.product_visibility === 'archived') return retired(`${row.product_title} is archived: it is no longer sold.`);
    if (row.visibility === 'archived') return retired(`This price of ${row.product_title} is archived: it is no longer sold.`);
    const { account_id, visibility: _v, product_visibility: _p, ...rest } = row;
    variant = rest;
    accountId = account_id;
  }
  const account = await db('accounts').where({ id: accountId! }).first('id', 'title', 'client_id', 'clock_id');
  if (!account) return unknown('account');
  return { path: `${CHECKOUT_PATH}/${kind}/${encodeURIComponent(ref)}`, account, configuration, mode: configuration?.mode ?? 'payment', variant };
}

export const isRefusal = (t: CheckoutTarget | Refusal): t is Refusal => 'status' in t && !('account' in t);
