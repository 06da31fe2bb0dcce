// The carriers a shipment may name, each with its public tracking page and the tracking-number shapes that identify
// it when the seller does not say (spec/areas/shipments.yaml lists the same table). Patterns are tried in this
// order; the first match wins, so the narrower shapes come first.
import { invalid } from '../../runtime/errors.js';
import type { ShipmentRow } from '../../generated/rows.js';

export type Carrier = 'usps' | 'ups' | 'fedex' | 'dhl_express' | 'royal_mail' | 'canada_post' | 'australia_post'
  | 'ontrac' | 'dpd' | 'post_nl';

interface CarrierEntry { trackingUrl: string; recognises: RegExp | null }

export const CARRIERS: Record<Carrier, CarrierEntry> = {
  ups: { trackingUrl: 'https://www.ups.com/track?tracknum={number}', recognises: /^1Z[0-9A-Z]{16}$/ },
  royal_mail: { trackingUrl: 'https://www.royalmail.com/track-your-item#/tracking-results/{number}', recognises: /^[A-Z]{2}\d{9}GB$/ },
  canada_post: { trackingUrl: 'https://www.canadapost-postescanada.ca/track-reperez/en#/search?searchFor={number}', recognises: /^[A-Z]{2}\d{9}CA$/ },
  australia_post: { trackingUrl: 'https://auspost.com.au/mypost/track/details/{number}', recognises: /^[A-Z]{2}\d{9}AU$/ },
  usps: { trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels={number}', recognises: /^(9\d{19,21}|[A-Z]{2}\d{9}US)$/ },
  ontrac: { trackingUrl: 'https://www.ontrac.com/tracking/?number={number}', recognises: /^[CD]\d{14}$/ },
  post_nl: { trackingUrl: 'https://jouw.postnl.nl/track-and-trace/{number}', recognises: /^3S[0-9A-Z]{11,13}$/ },
  fedex: { trackingUrl: 'https://www.fedex.com/fedextrack/?trknbr={number}', recognises: /^(\d{12}|\d{15})$/ },
  dhl_express: { trackingUrl: 'https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id={number}', recognises: /^\d{10}$/ },
  dpd: { trackingUrl: 'https://tracking.dpd.de/status/en_US/parcel/{number}', recognises: null },
};

/** The carrier sent, else the one whose number shape matches (400 naming carrier when none does). */
export function carrierFor(trackingNumber: string, sent: Carrier | undefined): Carrier {
  if (sent) return sent;
  for (const [carrier, entry] of Object.entries(CARRIERS) as [Carrier, CarrierEntry][]) {
    if (entry.recognises?.test(trackingNumber)) return carrier;
  }
  throw invalid(`No carrier is recognised from the tracking number '${trackingNumber}'; send carrier`, 'carrier');
}

export const trackingUrl = (carrier: Carrier, trackingNumber: string): string =>
  CARRIERS[carrier].trackingUrl.replace('{number}', encodeURIComponent(trackingNumber));

/** The Shipment resource's tracking_url (spec table: columns). */
export const shipmentTrackingUrl = (row: ShipmentRow): string => trackingUrl(row.carrier as Carrier, String(row.tracking_number));
