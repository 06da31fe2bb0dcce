// What an app's settings must satisfy beyond their shape: a route that is a DNS label, https URLs, and a route only
// where the app is hosted.
import { invalid } from '../../runtime/errors.js';

/** Hosted apps are served at <route>.APP_HOST (the simulated hosting, docs/sandbox/build-system.md). */
export const APP_HOST = 'apps.commerce.test';

const ROUTE = /^[a-z0-9](?:[a-z0-9-]{1,38})[a-z0-9]$/;

export function checkRoute(route: string): string {
  if (!ROUTE.test(route) || route.includes('--')) {
    throw invalid('route must be 3 to 40 lower-case letters, digits and single hyphens, starting and ending with a letter or digit', 'route');
  }
  return route;
}

export const hostnameOf = (route: string): string => `${route}.${APP_HOST}`;

export function checkHttpsUrl(url: string, param: string): string {
  let parsed: URL | null = null;
  try { parsed = new URL(url); } catch { /* refused below */ }
  if (!parsed || parsed.protocol !== 'https:' || !parsed.hostname) throw invalid(`${param} must be an https:// URL`, param);
  return url;
}

export const checkRedirectUris = (uris: string[]): string[] => uris.map((u, i) => checkHttpsUrl(u, `redirect_uris.${i}`));

/** deployment defaults to hosted when a route is sent; hosted needs a route and an API integration takes none. */
export function checkDeployment(deployment: 'hosted' | 'api_integration' | undefined, route: string | undefined) {
  const chosen = deployment ?? (route === undefined ? 'api_integration' : 'hosted');
  if (chosen === 'hosted' && route === undefined) throw invalid('A hosted app needs a route (the subdomain it is served at)', 'route');
  if (chosen === 'api_integration' && route !== undefined) throw invalid('An API integration has no route: only hosted apps are served at one', 'route');
  return { deployment: chosen, route: route === undefined ? null : checkRoute(route) };
}
