// Api-Version-Date header, else the credential's pin, else the first version; dates between versions
// resolve to the nearest earlier one.
import { invalid } from './errors.js';
import { specData } from '../generated/spec-data.js';

const VERSIONS: readonly string[] = specData.versions; // newest first
export const HEAD_VERSION = VERSIONS[0];
export const DEFAULT_VERSION = VERSIONS[VERSIONS.length - 1];
const FORM = /^(\d{4}-\d{2}-\d{2})(?:[.-]\d{1,4})?$/;

function isRealDate(date: string): boolean {
  const d = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === date;
}

/** The released version in force on `date`, or null if `date` precedes the first one. */
export function versionOn(date: string): string | null {
  return VERSIONS.find((v) => v <= date) ?? null;
}

// Headers seen and the version each resolves to: clients send a handful of values, each parsed once.
const resolved = new Map<string, string>();
const MAX_RESOLVED = 1000;

export function parseVersionDate(value: string, param: string): string {
  const known = resolved.get(value);
  if (known) return known;
  const m = FORM.exec(value.trim());
  if (!m || !isRealDate(m[1])) {
    throw invalid(`${param} must be a date such as ${HEAD_VERSION} (optionally with a numeric suffix), not '${value}'`, param);
  }
  const version = versionOn(m[1]);
  if (!version) throw invalid(`${param} ${value} is before the first version, ${DEFAULT_VERSION}`, param);
  if (resolved.size < MAX_RESOLVED) resolved.set(value, version);
  return version;
}

export function resolveVersion(header: string | undefined, pin: string | null): string {
  if (header !== undefined && header !== '') return parseVersionDate(header, 'Api-Version-Date');
  if (pin) return versionOn(pin) ?? DEFAULT_VERSION;
  return DEFAULT_VERSION;
}

export function flagOn(version: string, since: string): boolean {
  return version >= since;
}
