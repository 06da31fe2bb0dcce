// What a new promo code must satisfy; each failure names the offending field.
import type { Knex } from 'knex';
import type { CreatePromoCodeInput } from '../../generated/types.js';
import { invalid, notFound } from '../../runtime/errors.js';
import { basisPointsOf } from '../shared/money.js';

type Body = CreatePromoCodeInput['body'];

/** Exactly one discount: amount_off with its currency, or percent_off with at most two decimals. */
export function checkDiscount(body: Body): void {
  const fixed = body.amount_off !== undefined;
  const percent = body.percent_off !== undefined;
  if (fixed === percent) {
    throw invalid('Send exactly one of amount_off (with currency) or percent_off', fixed ? 'percent_off' : 'amount_off');
  }
  if (fixed && body.currency === undefined) throw invalid('currency is required with amount_off', 'currency');
  if (percent && body.currency !== undefined) throw invalid('currency applies to amount_off only', 'currency');
  if (percent && basisPointsOf(body.percent_off!) === null) {
    throw invalid('percent_off has at most two decimals', 'percent_off');
  }
}

export function checkExpiry(expiresAt: string | undefined): void {
  if (expiresAt !== undefined && Date.parse(expiresAt) <= Date.now()) {
    throw invalid('expires_at must be in the future', 'expires_at');
  }
}

/** product_id and plan_id restrict the code to the account's own live catalogue; a variant must be the product's. */
export async function checkRestrictions(db: Knex, body: Body): Promise<void> {
  if (body.product_id) {
    const product = await db('products').where({ id: body.product_id, account_id: body.account_id }).whereNull('deleted_at').first('id');
    if (!product) throw notFound('product', body.product_id, 'product_id');
  }
  if (body.plan_id) {
    const plan = await db('plans').where({ id: body.plan_id, account_id: body.account_id }).whereNull('deleted_at').first('product_id');
    if (!plan) throw notFound('variant', body.plan_id, 'plan_id');
    if (body.product_id && plan.product_id !== body.product_id) {
      throw invalid(`The variant ${body.plan_id} is not one of the product ${body.product_id}'s`, 'plan_id');
    }
  }
}
