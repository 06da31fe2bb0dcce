// Before 2026-08-21 (payouts status v2) money was a number in the major unit and the status words were the earlier
// ones; there was no status_detail. Decimal strings become the nearest number ("10.43" -> 10.43).
import { LEGACY_STATUS } from '../../../handlers/payouts/withdrawal-view.js';

export function down(payout: any): any {
  for (const key of ['amount', 'fee_amount', 'markup_fee', 'net_amount', 'destination_amount']) {
    if (typeof payout[key] === 'string') payout[key] = Number(payout[key]);
  }
  payout.status = LEGACY_STATUS[payout.status] ?? payout.status;
  delete payout.status_detail;
  // A stablecoin payout requested before status v2 is shown as the conversion request it was.
  if (payout.conversion_request_id) payout.id = payout.conversion_request_id;
  delete payout.conversion_request_id;
  return payout;
}
