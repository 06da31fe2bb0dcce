// The App and Domain fields saying where this server answers for a hosted app (spec/areas/apps.yaml table.columns):
// a hostname <route>.apps.commerce.test stays the domain's name, and its address is <PUBLIC_BASE_URL>/apps/<route>/.
import type { AppDomain } from '../../generated/types.js';
import type { AppRow, DomainRow } from '../../generated/rows.js';
import { hostedAppPath, servedUrl } from '../shared/hosted-paths.js';
import { APP_HOST } from './app-rules.js';

/** The route a hostname of the app host names (`chat.apps.commerce.test` -> `chat`). */
export const routeOfHostname = (hostname: string): string => hostname.slice(0, -(APP_HOST.length + 1));

export const domainUrl = (hostname: string): string => servedUrl(hostedAppPath(routeOfHostname(hostname)));

/** App.hosted_url: the active domain's address; null for an API integration (no domain). */
export const hostedUrlOf = (row: AppRow): string | null => (row.$hosted_url ? domainUrl(row.$hosted_url as string) : null);

/** App.domains: every hostname of the app (the statement's JSON, newest first), each with its address. */
export const domainsOf = (row: AppRow): AppDomain[] =>
  (row.$domains as Omit<AppDomain, 'url'>[]).map((d) => ({ id: d.id, hostname: d.hostname, url: domainUrl(d.hostname), status: d.status }));

/** Domain.url */
export const domainUrlOf = (row: DomainRow): string => domainUrl(row.hostname);
