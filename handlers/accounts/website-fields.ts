// The Website field only code can say (spec/areas/accounts.yaml Website table.columns): its address on this server.
import type { WebsiteRow } from '../../generated/rows.js';
import { servedUrl } from '../shared/hosted-paths.js';

/** The deployment stores the path it serves the site at (/sites/<account route>/); the address is PUBLIC_BASE_URL's,
 * read now, so a moved server shows where it answers. null until deployed. */
export const websiteUrlOf = (row: WebsiteRow): string | null => (row.status === 'deployed' && row.url ? servedUrl(row.url) : null);
