// promo_codes rows -> the PromoCode resource.
import type { PromoCode } from '../../generated/types.js';
import { money } from '../../runtime/money.js';
import type { Row } from '../products/catalogue-access.js';

export function promoCodeView(row: Row): PromoCode {
  return {
    id: row.id,
    account_id: row.account_id,
    code: row.code,
    status: row.status,
    amount_off: row.amount_off === null ? null : money(Number(row.amount_off), row.currency),
    // numeric(5,2) arrives as a string; two decimals are exact in a double for display
    percent_off: row.percent_off === null ? null : Number(row.percent_off),
    product_id: row.product_id,
    plan_id: row.plan_id,
    max_redemptions: row.max_redemptions,
    redemptions: row.redemptions,
    expires_at: row.expires_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
