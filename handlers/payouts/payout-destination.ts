// The payout_destination description of a rail, as payout methods carried it before 2026-07-30. Head code
// (available-destinations.ts) still serves it, so it lives here and the converters (spec/versions/2026-07-30/
// supported-payout-methods.payout-method.ts and .payout.ts) import it: converters may import head code, never the reverse.
import type { SupportedPayoutMethod } from '../../generated/types.js';

type RailDescription = Pick<SupportedPayoutMethod, 'delivery_type' | 'name' | 'supports_instant_delivery' | 'supports_standard_delivery'>;

export function destinationOf(rail: RailDescription) {
  return {
    delivery_type: rail.delivery_type, name: rail.name, icon_url: null,
    supports_instant_delivery: rail.supports_instant_delivery, supports_standard_delivery: rail.supports_standard_delivery,
  };
}
