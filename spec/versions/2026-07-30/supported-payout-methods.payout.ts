// Before 2026-07-30 a payout named its method as payout_token (nickname and the rail as payout_destination).
import { destinationOf } from '../../../handlers/payouts/payout-destination.js';

export function down(payout: any): any {
  const method = payout.payout_method;
  if (method) {
    const rail = method.supported_payout_method;
    payout.payout_token = { id: method.id, nickname: method.nickname, payout_destination: rail ? destinationOf(rail) : method.payout_destination ?? null };
  }
  delete payout.payout_method;
  return payout;
}
