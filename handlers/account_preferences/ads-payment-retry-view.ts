// ads_payment_retries rows -> the AdsPaymentRetry resource.
import type { AdsPaymentRetry } from '../../generated/types.js';

export function adsPaymentRetryView(row: Record<string, any>): AdsPaymentRetry {
  return {
    id: row.id,
    account_id: row.account_id,
    status: row.status,
    outcome: row.outcome,
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}
