import { invalid } from '../../runtime/errors.js';

/** ends_at, when given, comes after starts_at. */
export function checkSchedule(startsAt: string | null, endsAt: string | null): void {
  if (startsAt && endsAt && new Date(endsAt) <= new Date(startsAt)) throw invalid('ends_at must be after starts_at', 'ends_at');
}
