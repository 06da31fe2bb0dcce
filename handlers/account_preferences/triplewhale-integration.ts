// The ad-spend reporting integration: its status follows from what is stored, and its key is shown masked.
import type { AccountPreferences } from '../../generated/types.js';
import type { StoredPreferences } from './preferences-store.js';

type Stored = StoredPreferences['ads_triplewhale_integration'];
export interface IntegrationWrite { api_key?: string | null; shop_domain?: string | null }

const VISIBLE_KEY_CHARS = 4;
// A fixed run of asterisks, so the masked form does not reveal the key's length either.
const MASK = '*'.repeat(12);

/** Sent keys replace; api_key null disconnects and forgets the shop unless a shop_domain is sent alongside. */
export function applyIntegrationWrite(current: Stored, write: IntegrationWrite): Stored {
  const next = { ...current };
  if (write.api_key !== undefined) next.api_key = write.api_key;
  if (write.api_key === null) next.shop_domain = null;
  // Hostnames are case-insensitive; store one spelling so equality checks and displays agree.
  if (write.shop_domain !== undefined) next.shop_domain = write.shop_domain?.toLowerCase() ?? null;
  return next;
}

export function integrationView(stored: Stored): AccountPreferences['ads_triplewhale_integration'] {
  const { api_key: key, shop_domain } = stored;
  const status = !key ? 'not_connected' : shop_domain ? 'connected' : 'requires_shop_domain';
  return { status, masked_api_key: key ? key.slice(0, VISIBLE_KEY_CHARS) + MASK : null, shop_domain };
}
