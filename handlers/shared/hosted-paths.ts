// Where this server serves what accounts host: a hosted app at /apps/<route>/ and an account's website (made from a
// blueprint) at /sites/<account route>/, under PUBLIC_BASE_URL, so the addresses the API shows answer from a browser
// on the machine without any DNS. The trailing slash makes a build's relative links resolve under its own path.
import { publicBaseUrl } from './public-url.js';

export const APPS_PATH = '/apps';
export const SITES_PATH = '/sites';

export const hostedAppPath = (route: string): string => `${APPS_PATH}/${encodeURIComponent(route)}/`;
export const websitePath = (accountRoute: string): string => `${SITES_PATH}/${encodeURIComponent(accountRoute)}/`;

/** An absolute address of this server for a path of it (PUBLIC_BASE_URL, read at each call: it is configuration). */
export const servedUrl = (path: string): string => `${publicBaseUrl().replace(/\/+$/, '')}${path}`;
