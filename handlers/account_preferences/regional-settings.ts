// Reporting currency and scheduling timezone are checked against the runtime's ICU data, not a hand-kept list.
import { invalid } from '../../runtime/errors.js';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency').map((c) => c.toLowerCase()));

export function checkReportingCurrency(code: string): string {
  if (!CURRENCIES.has(code)) throw invalid(`'${code}' is not an ISO 4217 currency code`, 'ads_reporting_currency');
  return code;
}

/** Names already resolved: ICU builds a whole date formatter to answer (~0.2 ms a call, measured in a profile of
 * GET /stats/time_series, which resolves the account's zone on every read). Only names ICU accepted are kept, and at
 * most this many: the spellings clients send are few, but a name is the caller's text. */
const RESOLVED_LIMIT = 1000;
const resolvedZones = new Map<string, string>();

/** The canonical IANA name (America/New_York for america/new_york); offsets such as +02:00 are not zones. `param`
 * names the input in the refusal (stats take the zone as time_zone). */
export function canonicalTimezone(name: string, param = 'ads_scheduling_timezone'): string {
  const known = resolvedZones.get(name);
  if (known !== undefined) return known;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    throw invalid(`'${name}' is not an IANA timezone, such as America/New_York`, param);
  }
  if (/^[+-]/.test(resolved)) throw invalid(`'${name}' is an offset, not an IANA timezone such as America/New_York`, param);
  if (resolvedZones.size < RESOLVED_LIMIT) resolvedZones.set(name, resolved);
  return resolved;
}
