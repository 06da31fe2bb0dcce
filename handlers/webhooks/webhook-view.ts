// webhooks rows -> the Webhook resource. The signing secret is shown only by the create response.
import type { Webhook } from '../../generated/types.js';
import { formatDate } from '../../runtime/auth.js';

export type WebhookRow = Record<string, any>;

export function webhookView(row: WebhookRow, secret: string | null = null): Webhook {
  return {
    id: row.id,
    account_id: row.account_id,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    description: row.description,
    api_version_date: row.api_version_date ? formatDate(row.api_version_date) : null,
    include_connected_accounts: row.include_connected_accounts,
    secret,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
