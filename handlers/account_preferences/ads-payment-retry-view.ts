// ads_payment_retries rows -> the AdsPaymentRetry resource.
import type { AdsPaymentRetry } from '../../generated/types.js';
import type { Tables } from '../../generated/rows.js';

export function adsPaymentRetryView(row: Tables['ads_payment_retries']): AdsPaymentRetry {
  return {
    id: row.id,
    account_id: row.account_id,
    // Written only by this area, with the API's values (handlers/account_preferences/retry-ads-payment-task.ts)
    status: row.status as AdsPaymentRetry['status'],
    outcome: row.outcome as AdsPaymentRetry['outcome'],
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}
