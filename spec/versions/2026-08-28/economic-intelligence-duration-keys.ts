// Before 2026-08-28 offers carried only `duration_days`; hour-long offers round up to whole days.
export function down(offer: any): any {
  offer.duration_days = offer.duration_unit === 'hours' ? Math.ceil(offer.duration / 24) : offer.duration;
  return offer;
}
