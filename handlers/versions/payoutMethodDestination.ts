// Before 2026-07-30 a payout method described its rail as payout_destination, not supported_payout_method.
export function destinationOf(rail: any) {
  return {
    delivery_type: rail.delivery_type, name: rail.name, icon_url: null,
    supports_instant_delivery: rail.supports_instant_delivery, supports_standard_delivery: rail.supports_standard_delivery,
  };
}

export function down(method: any): any {
  if (method.supported_payout_method) method.payout_destination = destinationOf(method.supported_payout_method);
  delete method.supported_payout_method;
  return method;
}
