// refunds rows -> the Refund resource.
import type { Refund } from '../../generated/types.js';
import { money } from '../../runtime/money.js';

export function refundView(row: Record<string, any>): Refund {
  return {
    id: row.id,
    payment_id: row.payment_id,
    account_id: row.account_id,
    amount: money(Number(row.amount), row.currency),
    original_amount: money(Number(row.original_amount), row.original_currency),
    provider: row.provider,
    status: row.status,
    failure_reason: row.failure_reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
