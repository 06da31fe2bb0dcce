// The sandbox ad network's matching of customer lists (spec/areas/audiences.yaml says the rules in words): which rows
// it can use and match, what match rate it reports, and the id it gives a built audience. Pure functions of the
// data, so a list always builds the same way.
import { createHash } from 'node:crypto';
import type { Audience } from '../../generated/types.js';
import type { AudienceRow } from '../../generated/rows.js';

/** Rows read per transaction while building. */
export const BATCH_ROWS = 500;
/** A row matches when the first byte of its identifier's SHA-256 is below this (179 / 256: about 70%). */
const MATCH_BELOW = 179;
/** Fewer usable rows than this give no match rate (it would say too much about too few people). */
export const MATCH_RATE_MIN_ROWS = 20;

export interface Identifiers { email: string | null; phone: string | null }

/** The identifier the network matches a row by: its normalised email, else its phone's digits (7 to 15), else none. */
export function identifierOf(row: Identifiers): string | null {
  const email = row.email?.trim().toLowerCase() ?? '';
  if (/^[^@\s]+@[^@\s]+$/.test(email)) return email;
  const digits = (row.phone ?? '').replace(/\D/g, '');
  return digits.length >= 7 && digits.length <= 15 ? digits : null;
}

export const matches = (identifier: string): boolean =>
  createHash('sha256').update(identifier).digest()[0]! < MATCH_BELOW;

const BUILT = new Set(['ready', 'partial']);

export function matchRatesOf(row: AudienceRow): Audience['match_rates'] {
  if (row.source_type !== 'customer_list') return [];
  if (row.status === 'pending' || row.status === 'processing') {
    return [{ platform: 'meta', status: 'calculating', lower_bound: null, upper_bound: null }];
  }
  const usable = Number(row.usable_rows);
  if (!BUILT.has(row.status) || usable < MATCH_RATE_MIN_ROWS) {
    return [{ platform: 'meta', status: 'unavailable', lower_bound: null, upper_bound: null }];
  }
  const lower = Math.min(90, Math.floor((Number(row.matched_rows) * 10) / usable) * 10);
  return [{ platform: 'meta', status: 'available', lower_bound: lower, upper_bound: lower + 10 }];
}

export const platformAudienceIdsOf = (row: AudienceRow): string[] => (row.platform_audience_id ? [row.platform_audience_id] : []);

/** The network's id of a built audience: 13 digits from SHA-256 of ours. */
export const networkAudienceId = (audienceId: string): string =>
  (createHash('sha256').update(audienceId).digest().readUIntBE(0, 6) % 10_000_000_000_000).toString().padStart(13, '0');
