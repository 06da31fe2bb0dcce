// The `Link: <...>; rel="successor-version"` of a deprecated operation's answer: the successor's path with the
// request's path parameters filled in and the request's query carried over (each name as the successor takes it at
// the caller's version), so that a client can follow it as it is.
import { api } from './api-definition.js';

export interface Successor {
  /** the successor's path template, with `{name}` placeholders named as the deprecated operation's parameters */
  successor?: string;
  /** the versions at which the successor is served, each with the query names that differ there (caller's ->
   * successor's); absent: every version, no renames */
  successorAt?: Record<string, Record<string, string>>;
}

/** The link's target, or null when there is none at this version. */
export function successorLink(deprecated: Successor, version: string, params: Record<string, string>, querystring: string): string | null {
  if (!deprecated.successor) return null;
  const renames = deprecated.successorAt ? deprecated.successorAt[version] : {};
  if (!renames) return null;
  const path = deprecated.successor.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const query = new URLSearchParams(querystring);
  const carried = new URLSearchParams();
  for (const [key, value] of query) {
    // Arrays are sent as key[]=a&key[]=b: the name is what precedes the brackets.
    const [, name, brackets] = /^(.*?)((?:\[\])?)$/.exec(key)!;
    carried.append(`${Object.hasOwn(renames, name) ? renames[name] : name}${brackets}`, value);
  }
  const qs = carried.toString();
  return `${api().spec.basePath}${path}${qs ? `?${qs}` : ''}`;
}
