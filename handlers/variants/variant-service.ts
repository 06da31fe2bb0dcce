// Creating and changing variants: one implementation behind /variants, the deprecated /plans and inline variants of
// checkout configurations.
import type { Variant } from '../../generated/types.js';
import type { HandlerContext } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { notFound } from '../../runtime/errors.js';
import { isUniqueViolation } from '../accounts/index.js';
import { dropNulls, mergeMetadata } from '../../runtime/metadata.js';
import type { VariantRow } from '../../generated/rows.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import {
  checkPlanTypeTerms, checkQuickLinkPrices, checkShortLinkFree, checkThreeDSecure, generatedShortLink,
  shortLinkTaken, SHORT_LINK_CONSTRAINT,
} from './variant-rules.js';

/** POST /variants's body; an inline `plan` of a checkout configuration is the same without defaults applied. */
export interface NewVariant {
  account_id: string;
  product_id: string;
  title?: string | null;
  plan_type: 'renewal' | 'one_time';
  billing_period?: number;
  trial_period_days?: number | null;
  expiration_days?: number | null;
  split_pay_required_payments?: number | null;
  currency?: string;
  initial_price?: number;
  renewal_price?: number;
  visibility?: 'visible' | 'hidden' | 'quick_link' | 'archived';
  stock?: number | null;
  short_link?: string;
  three_d_secure_policy?: 'mandate_challenge' | 'mandate_if_required' | 'frictionless_if_required' | null;
  metadata?: Record<string, string | number | boolean | null>;
}

export type VariantChanges = Partial<Omit<NewVariant, 'account_id' | 'product_id' | 'plan_type' | 'currency' | 'short_link'>>
  & { short_link?: string | null };

/** Writes a unique short link, turning a race lost after the check into the same 409. */
async function writing<T>(shortLink: string | null | undefined, prefix: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (shortLink && isUniqueViolation(e, SHORT_LINK_CONSTRAINT)) throw shortLinkTaken(shortLink, prefix);
    throw e;
  }
}

/**
 * Creates a variant of a live product of input.account_id (the caller's plan:create there is already checked).
 * `prefix` is prepended to error params (e.g. 'plan.' for an inline variant).
 */
export async function createVariant(ctx: HandlerContext, input: NewVariant, prefix = ''): Promise<Variant> {
  // Key-share locked until the request ends: a delete of the product (which locks it for update, then deletes its
  // variants) waits for this variant to commit and deletes it too, or goes first and this finds no live product.
  const product = await ctx.db('products').where({ id: input.product_id, account_id: input.account_id })
    .whereNull('deleted_at').forKeyShare().first('id');
  if (!product) throw notFound('product', input.product_id, `${prefix}product_id`);
  const sent = input as unknown as Record<string, unknown>;
  checkPlanTypeTerms(input, sent, prefix);
  const visibility = input.visibility ?? 'visible';
  if (visibility === 'quick_link') checkQuickLinkPrices(input.plan_type, sent, prefix);
  await checkThreeDSecure(ctx.db, input.account_id, input.three_d_secure_policy, prefix);
  const shortLink = input.short_link ?? (visibility === 'quick_link' ? generatedShortLink() : null);
  if (shortLink) await checkShortLinkFree(ctx.db, shortLink, prefix);

  const renewal = input.plan_type === 'renewal';
  const [row] = await writing(shortLink, prefix, () => ctx.db('plans').insert({
    id: newId('plan_'),
    account_id: input.account_id,
    product_id: input.product_id,
    title: input.title ?? null,
    plan_type: input.plan_type,
    billing_period_days: renewal ? input.billing_period : null,
    trial_period_days: renewal ? input.trial_period_days ?? null : null,
    expiration_days: renewal ? null : input.expiration_days ?? null,
    split_pay_required_payments: renewal ? input.split_pay_required_payments ?? null : null,
    currency: input.currency ?? 'usd',
    initial_price: input.initial_price ?? 0,
    renewal_price: renewal ? input.renewal_price ?? 0 : 0,
    visibility,
    stock: input.stock ?? null,
    short_link: shortLink,
    three_d_secure_policy: input.three_d_secure_policy ?? null,
    metadata: JSON.stringify(dropNulls(input.metadata)),
  }).returning('*'));
  const view = resources.Variant.view(row);
  await ctx.emit('plan.created', input.account_id, view);
  return view;
}

const PLAIN = ['title', 'trial_period_days', 'initial_price', 'renewal_price', 'visibility', 'stock', 'short_link',
  'three_d_secure_policy', 'expiration_days', 'split_pay_required_payments'] as const;

/** Column changes for the sent fields that differ from the stored row. */
function changes(row: VariantRow, body: VariantChanges): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of PLAIN) {
    const value = body[field];
    const stored = field === 'initial_price' || field === 'renewal_price' ? Number(row[field]) : row[field];
    if (value !== undefined && value !== stored) out[field] = value;
  }
  if (body.billing_period !== undefined && body.billing_period !== row.billing_period_days) {
    out.billing_period_days = body.billing_period;
  }
  if (body.metadata !== undefined) {
    const merged = mergeMetadata(row.metadata, body.metadata);
    if (JSON.stringify(merged) !== JSON.stringify(row.metadata)) out.metadata = JSON.stringify(merged);
  }
  return out;
}

/** Applies a PATCH to a locked, visible variant row (plan:update already checked). */
export async function updateVariant(ctx: HandlerContext, row: VariantRow, changesSent: VariantChanges): Promise<Variant> {
  let body = changesSent;
  const sent = body as Record<string, unknown>;
  checkPlanTypeTerms({
    plan_type: row.plan_type,
    billing_period: body.billing_period ?? row.billing_period_days,
  }, sent, '');
  if (body.visibility === 'quick_link' && row.visibility !== 'quick_link') {
    checkQuickLinkPrices(row.plan_type, sent, '');
    // A new quick link gets a generated slug, as on create, unless it has or is sent one.
    if (body.short_link === undefined && !row.short_link) body = { ...body, short_link: generatedShortLink() };
  }
  if (body.three_d_secure_policy !== row.three_d_secure_policy) {
    await checkThreeDSecure(ctx.db, row.account_id, body.three_d_secure_policy, '');
  }
  if (body.short_link && body.short_link !== row.short_link) await checkShortLinkFree(ctx.db, body.short_link, '', row.id);
  const update = changes(row, body);
  if (Object.keys(update).length === 0) return resources.Variant.view(row);
  const [updated] = await writing(body.short_link, '', () => ctx.db('plans').where({ id: row.id })
    .update({ ...update, updated_at: nowMs(ctx.db) }).returning('*'));
  const view = resources.Variant.view(updated);
  await ctx.emit('plan.updated', row.account_id, view);
  return view;
}
