// payments rows (joined with their buyer) -> the Payment resource.
import type { Knex } from 'knex';
import type { Payment } from '../../generated/types.js';
import { money } from '../../runtime/money.js';

export type PaymentRow = Record<string, any> & { id: string; account_id: string; status: string };

/** payments (as p) with the buyer's public profile, as paymentView reads them. */
export const paymentRows = (db: Knex) => db('payments as p').leftJoin('users as u', 'u.id', 'p.user_id')
  .select('p.*', 'u.username as buyer_username', 'u.name as buyer_name', 'u.profile_picture_url as buyer_picture');

export async function loadPaymentView(db: Knex, id: string, options: { list?: boolean } = {}): Promise<Payment> {
  return paymentView(await paymentRows(db).where('p.id', id).first(), options);
}

export function paymentView(row: PaymentRow, options: { list?: boolean } = {}): Payment {
  const m = (amount: number | string) => money(Number(amount), row.currency);
  const collected = ['succeeded', 'refunded', 'partially_refunded'].includes(row.status);
  return {
    id: row.id,
    account_id: row.account_id,
    plan_id: row.plan_id,
    product_id: row.product_id,
    membership_id: row.membership_id,
    member_id: row.member_id,
    promo_code_id: row.promo_code_id,
    shipment_id: row.shipment_id,
    payment_method_id: row.payment_method_id,
    user: row.user_id
      ? { id: row.user_id, username: row.buyer_username, name: row.buyer_name, profile_picture: row.buyer_picture }
      : null,
    total: m(row.total),
    subtotal: m(row.subtotal),
    // subtotal - discount_amount + tax_amount = total (pricing.ts)
    discount_amount: m(row.discount_amount ?? 0),
    tax_amount: m(row.tax_amount),
    refunded_amount: m(row.refunded_amount),
    tax_refunded_amount: m(row.tax_refunded_amount),
    amount_after_fees: m(collected ? Number(row.total) - Number(row.fee_amount) : 0),
    usd_total: money(Number(row.usd_total), 'usd'),
    billing_reason: row.billing_reason,
    currency: row.currency,
    status: row.status as Payment['status'],
    last_payment_attempt_at: row.last_payment_attempt_at,
    next_payment_attempt_at: row.next_payment_attempt_at,
    settlement_time_at: options.list ? null : row.settlement_time_at,
    payment_instrument: row.payment_instrument,
    next_action: row.next_action,
    failure_code: row.failure_code,
    failure_message: row.failure_message,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
