// payment_methods rows -> the PaymentMethod resource.
import type { PaymentMethod } from '../../generated/types.js';

export function paymentMethodView(row: Record<string, any>): PaymentMethod {
  return {
    id: row.id,
    account_id: row.account_id,
    member_id: row.member_id,
    user_id: row.user_id,
    type: 'card',
    card: row.last4 ? { brand: row.card_brand, last4: row.last4, exp_month: row.exp_month, exp_year: row.exp_year } : null,
    created_at: row.created_at,
  };
}
