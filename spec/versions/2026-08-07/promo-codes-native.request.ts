// Before native promo codes (2026-08-07) a create said the discount with promo_type and one amount_off (a percentage,
// or a decimal of base_currency), the limit with stock / unlimited_stock and the variants with plan_ids. Eligibility
// rules this platform does not have (new, churned or existing customers only, one per customer, several months)
// are refused by name rather than ignored.
import { invalid } from '../../../runtime/errors.js';
import { basisPointsOf, minorAmount } from '../../../handlers/shared/money.js';

const UNSUPPORTED_FLAGS = ['new_users_only', 'churned_users_only', 'existing_memberships_only', 'one_per_customer'] as const;

export function up(input: { body: Record<string, any> }): void {
  const b = input.body;
  for (const flag of UNSUPPORTED_FLAGS) {
    if (b[flag] === true) throw invalid(`${flag} is not supported: promo codes apply to any buyer`, flag);
    delete b[flag];
  }
  if (b.promo_duration_months !== undefined && b.promo_duration_months !== null && b.promo_duration_months !== 1) {
    throw invalid('promo_duration_months must be 1: a promo code discounts the payment it is used on', 'promo_duration_months');
  }
  delete b.promo_duration_months;
  const { promo_type: type, amount_off: amount, base_currency: currency } = b;
  delete b.promo_type;
  delete b.base_currency;
  delete b.amount_off;
  if (type === 'percentage') {
    // Exact: 0.07 x 100 is 7.000000000000001 in binary floats; its decimal text says 7 basis points.
    const basisPoints = basisPointsOf(amount);
    if (basisPoints === null || basisPoints > 10_000) throw invalid('A percentage amount_off is at most 100, with at most two decimals', 'amount_off');
    b.percent_off = amount;
  } else {
    if (typeof currency !== 'string') throw invalid('base_currency is required for a flat_amount promo code', 'base_currency');
    b.amount_off = minorAmount(amount, currency, 'amount_off');
    b.currency = currency;
  }
  const plans: string[] = b.plan_ids ?? [];
  delete b.plan_ids;
  if (plans.length > 1) throw invalid('A promo code can be restricted to one variant; name at most one in plan_ids', 'plan_ids');
  if (plans.length === 1) b.plan_id = plans[0];
  const { stock, unlimited_stock: unlimited } = b;
  delete b.stock;
  delete b.unlimited_stock;
  if (!unlimited && stock !== undefined && stock !== null) b.max_redemptions = stock;
}
