// Before 2026-07-30 a payout method described its rail as payout_destination, not supported_payout_method.
// The description itself is head code (available-destinations still serves it): handlers/payouts/payout-destination.ts.
import { destinationOf } from '../../../handlers/payouts/payout-destination.js';

export function down(method: any): any {
  if (method.supported_payout_method) method.payout_destination = destinationOf(method.supported_payout_method);
  delete method.supported_payout_method;
  return method;
}
