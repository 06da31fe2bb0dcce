// The headers every v2 response carries, errors included: Deprecation (@unix seconds), Link to the successor
// Current request and to the migration guide, and Sunset where the route map announces one.
import type { Context } from 'koa';
import { api } from '../api-definition.js';
import type { V2Settings } from './route.js';

/** Links go to the public origin when one is configured, else to the origin the request came to. */
export const publicOrigin = (ctx: Context): string => process.env.PUBLIC_BASE_URL ?? `${ctx.protocol}://${ctx.host}`;

/** The Current request (absolute URL) that does what a v2 request did. */
export function successorUrl(ctx: Context, currentPath: string, path: Record<string, string>, query: Record<string, string | string[]>): string {
  const filled = currentPath.replace(/\{([a-z_]+)\}/g, (whole, name: string) => (path[name] ? encodeURIComponent(path[name]) : whole));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) for (const v of Array.isArray(value) ? value : [value]) search.append(key, v);
  const qs = search.toString();
  return `${publicOrigin(ctx)}${api().spec.basePath}${filled}${qs ? `?${qs}` : ''}`;
}

export function setV2Headers(ctx: Context, settings: V2Settings, successor: string, sunset: string | null): void {
  ctx.set('Deprecation', `@${settings.deprecatedAt}`);
  ctx.set('Link', `<${successor}>; rel="successor-version", <${publicOrigin(ctx)}${settings.guidePath}>; rel="deprecation"`);
  if (sunset) ctx.set('Sunset', new Date(`${sunset}T00:00:00Z`).toUTCString());
  else ctx.remove('Sunset');
}
