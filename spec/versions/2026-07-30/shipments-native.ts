// Before native shipments (2026-07-30) a shipment embedded its payment, called its number tracking_code and carried
// the carrier-scan fields; the sandbox follows no parcels, so their values are the ones for "no scan yet".
export function down(shipment: any): any {
  const older: any = {
    id: shipment.id,
    carrier: shipment.carrier,
    created_at: shipment.created_at,
    delivery_estimate: null,
    payment: shipment.payment_id ? { id: shipment.payment_id } : null,
    service: null,
    status: 'unknown',
    substatus: null,
    tracking_code: shipment.tracking_number,
    updated_at: shipment.updated_at,
  };
  return older;
}
