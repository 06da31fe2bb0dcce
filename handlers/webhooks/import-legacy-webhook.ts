// A legacy (v2 or v5) subscription, imported by the platform operator (`npm run cli -- operator import-webhook`):
// the only way a v5 subscription comes to exist, and with POST /api/v2/webhooks the only way a v2 one does. No API
// call creates or switches to either. The subscription and the operator action recording who imported it and when
// are written in one transaction. It is unpinned (its format fixes its payloads; migration 585 holds it so).
import type { Knex } from 'knex';
import { invalid, notFound } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { seal } from '../../runtime/sealed-secrets.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { EVENT_CATALOGUE, checkEvents, checkUrl, newWebhookSecret } from './webhook-rules.js';

export const LEGACY_FORMATS = ['v2', 'v5'] as const;
export type LegacyFormat = (typeof LEGACY_FORMATS)[number];

export interface LegacyImport {
  accountId: string;
  url: string;
  format: string;
  /** omitted: every event of the catalogue, as on create */
  events?: readonly string[];
  description?: string | null;
  /** the subscription's existing whsec_ secret, so its receiver keeps verifying; omitted: a new one */
  secret?: string;
  operator: string;
}

// whsec_ and base64 of 24 to 64 bytes: what Standard Webhooks senders issue.
const SECRET = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;

export async function importLegacyWebhook(db: Knex, input: LegacyImport): Promise<Record<string, unknown>> {
  if (!(LEGACY_FORMATS as readonly string[]).includes(input.format)) {
    throw invalid(`format must be v2 or v5, not '${input.format}': v1 subscriptions are created with POST /webhooks`, 'format');
  }
  const unknown = (input.events ?? []).filter((e) => !EVENT_CATALOGUE.includes(e));
  if (unknown.length) throw invalid(`events must be names from the event catalogue; unknown: ${unknown.join(', ')}`, 'events');
  if (input.secret !== undefined && !SECRET.test(input.secret)) {
    throw invalid('secret must be a Standard Webhooks secret: whsec_ followed by base64 of 24 to 64 bytes', 'secret');
  }
  if (input.description != null && input.description.length > 500) throw invalid('description must be at most 500 characters', 'description');
  const url = await checkUrl(input.url);
  const events = checkEvents(input.events);
  const secret = input.secret ?? newWebhookSecret();
  return db.transaction(async (trx) => {
    const account = await trx('accounts').where({ id: input.accountId }).first('id');
    if (!account) throw notFound('account', input.accountId, 'account');
    const id = newId('hook_');
    const [row] = await trx('webhooks').insert({
      id, account_id: input.accountId, url, events, enabled: true, description: input.description ?? null,
      api_version_date: null, include_connected_accounts: false, payload_format: input.format, secret: seal(secret),
    }).returning('*');
    const [action] = await trx('operator_actions').insert({
      id: newId('opact_'), operator: input.operator, account_id: input.accountId, action: `import-webhook:${input.format}:${id}`,
    }).returning(['action', 'operator', 'created_at']);
    return {
      webhook: await readView(trx, resources.Webhook, row.id), secret, secret_given: input.secret !== undefined,
      operator_action: { action: action.action, operator: action.operator, at: new Date(action.created_at).toISOString() },
    };
  });
}
