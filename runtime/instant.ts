// The one test of a timestamp input (a body field, a query filter, a value decoded from a page cursor): an
// RFC 3339 date-time that names a real calendar instant which PostgreSQL stores and JavaScript reads back alike.
// ajv's own date-time format checks only the shape: it lets through 30 February, year 0000 (PostgreSQL has no
// year 0) and offsets such as -23:59 (PostgreSQL refuses UTC offsets beyond ±15:59), which then fail in the
// database as 500s. The generated validators use this function as their `date-time` format (runtime/input-formats.ts).

/** The syntax ajv-formats accepted (T or t, Z or z, or an offset ±hh, ±hhmm or ±hh:mm), so no caller that sent a
 * real instant before is refused now. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)$/;

/** The instants the API stores and shows: years 0001 to 9999 in UTC, the range of four-digit ISO 8601 years
 * that Date#toISOString writes back as it reads them. */
export const FIRST_INSTANT_MS = Date.parse('0001-01-01T00:00:00.000Z');
export const LAST_INSTANT_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** PostgreSQL refuses UTC offsets of 16 hours or more. */
const MAX_OFFSET_MINUTES = 15 * 60 + 59;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Milliseconds since the epoch of an RFC 3339 date-time, or null when it is not one the API can store: no such
 * day (30 February), no such time (24:00, or a leap second, which neither JavaScript nor the tables hold), an
 * offset PostgreSQL refuses, or an instant outside years 0001-9999 in UTC. Fractions are kept to the millisecond,
 * as the timestamp columns keep them.
 */
export function parseInstant(text: string): number | null {
  const m = DATE_TIME.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offset = 0;
  if (m[8]) {
    const hours = Number(m[9]);
    const minutes = Number(m[10] ?? 0);
    if (minutes > 59 || hours * 60 + minutes > MAX_OFFSET_MINUTES) return null;
    offset = (m[8] === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  const millis = m[7] ? Math.round(Number(`0.${m[7]}`) * 1000) : 0;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, millis);
  const instant = local.getTime() - offset * 60_000;
  return instant >= FIRST_INSTANT_MS && instant <= LAST_INSTANT_MS ? instant : null;
}

export const isInstant = (text: string): boolean => parseInstant(text) !== null;
