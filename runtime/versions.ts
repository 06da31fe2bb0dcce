// Api-Version-Date header, else the credential's pin, else the first version; dates between versions
// resolve to the nearest earlier one.
import { invalid } from './errors.js';
import { api, whenInstalled } from './api-definition.js';

/** The newest version of the API installed (the head): what this server's own pages and the v2 layer call at. */
export function headVersion(): string {
  return api().spec.versions[0];
}

/** The first version of the API installed: what a request with neither header nor pin gets. */
export function defaultVersion(): string {
  const { versions } = api().spec;
  return versions[versions.length - 1];
}

const FORM = /^(\d{4}-\d{2}-\d{2})(?:[.-]\d{1,4})?$/;

function isRealDate(date: string): boolean {
  const d = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === date;
}

/** The released version in force on `date`, or null if `date` precedes the first one. */
export function versionOn(date: string): string | null {
  return api().spec.versions.find((v) => v <= date) ?? null; // newest first
}

// Headers seen and the version each resolves to: clients send a handful of values, each parsed once.
const resolved = new Map<string, string>();
const MAX_RESOLVED = 1000;

// Another API installed (a test composing one) resolves headers afresh.
whenInstalled(() => {
  resolved.clear();
});

export function parseVersionDate(value: string, param: string): string {
  const known = resolved.get(value);
  if (known) return known;
  const m = FORM.exec(value.trim());
  if (!m || !isRealDate(m[1])) {
    throw invalid(`${param} must be a date such as ${headVersion()} (optionally with a numeric suffix), not '${value}'`, param);
  }
  const version = versionOn(m[1]);
  if (!version) throw invalid(`${param} ${value} is before the first version, ${defaultVersion()}`, param);
  if (resolved.size < MAX_RESOLVED) resolved.set(value, version);
  return version;
}

export function resolveVersion(header: string | undefined, pin: string | null): string {
  if (header !== undefined && header !== '') return parseVersionDate(header, 'Api-Version-Date');
  if (pin) return versionOn(pin) ?? defaultVersion();
  return defaultVersion();
}

export function flagOn(version: string, since: string): boolean {
  return version >= since;
}
