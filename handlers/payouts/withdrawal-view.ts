// A payout in the retired withdrawal shape: float money in the major unit, the old status words, the balance as
// ledger_account, the method as payout_token.
import type { Withdrawal } from '../../generated/types.js';
import { decimalAmount } from '../../runtime/decimal-money.js';
import { currencyDecimals } from '../../runtime/money.js';
import type { PayoutRow } from './payout-view.js';

/** Status v2's words in the older vocabulary (also the payouts' own at pins before 2026-08-21). */
export const LEGACY_STATUS: Record<string, Withdrawal['status']> = {
  requested: 'requested', in_review: 'requested', processing: 'in_transit', completed: 'completed',
  reversed: 'failed', canceled: 'canceled', failed: 'failed', denied: 'denied',
};

export function withdrawalView(p: PayoutRow): Withdrawal {
  const decimals = currencyDecimals(p.currency);
  const major = (minor: unknown) => decimalAmount({ amount: Number(minor), decimals });
  const method = p.$method;
  return {
    id: p.id,
    amount: major(p.amount),
    currency: p.currency,
    fee_amount: major(p.fee_amount),
    fee_type: 'inclusive',
    markup_fee: major(p.markup_fee),
    speed: p.speed,
    status: LEGACY_STATUS[p.status],
    error_code: p.failure_code,
    error_message: p.failure_message,
    estimated_availability: p.estimated_arrival_at,
    ledger_account: { id: p.ledger_id, company_id: p.account_id },
    payout_request_id: p.payout_request_id,
    payout_token: { id: method.id, created_at: new Date(method.created_at).toISOString(), destination_currency_code: method.destination_currency, nickname: method.nickname, payer_name: null },
    trace_code: p.trace_code,
    created_at: p.created_at,
  };
}
