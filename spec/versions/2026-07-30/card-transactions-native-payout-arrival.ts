// Before 2026-07-30 a payout method had no fee_structure or estimated_arrival; its quote's standard and instant each
// carried their own estimated_arrival.
export function down(method: any): any {
  const arrivals = method.estimated_arrival ?? {};
  for (const speed of ['standard', 'instant']) {
    if (method.quote?.[speed]) method.quote[speed].estimated_arrival = arrivals[speed] ?? null;
  }
  delete method.fee_structure;
  delete method.estimated_arrival;
  return method;
}
