// Written by hand, not declared plain: checks and seals a new signing secret, returned this once; an API key's own account is checked here.
import type { Handler } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { checkEvents, checkPayloadFormat, checkPin, checkUrl, newWebhookSecret, subscriptionAccount } from './webhook-rules.js';
import { resources } from '../../generated/resources.js';
import { seal } from '../../runtime/sealed-secrets.js';
import { readView } from '../../runtime/plain/stored-resource.js';

/**
 * POST /webhooks: the runtime has checked webhook:manage on a named account (an API key's own account is checked
 * here); events default to the whole catalogue; the secret is returned this once.
 */
export const createWebhook: Handler<'createWebhook'> = async ({ body }, ctx) => {
  checkPayloadFormat(body.api_version);
  const accountId = await subscriptionAccount(ctx, body.account_id);
  const url = await checkUrl(body.url);
  const secret = newWebhookSecret();
  const [row] = await ctx.db('webhooks')
    .insert({
      id: newId('hook_'),
      account_id: accountId,
      url,
      events: checkEvents(body.events),
      enabled: body.enabled,
      description: body.description ?? null,
      api_version_date: checkPin(body.api_version_date ?? null),
      include_connected_accounts: body.include_connected_accounts,
      secret: seal(secret), // read back to sign deliveries, so sealed rather than hashed
    })
    .returning('*');
  // read again: the view has fields a returned row lacks (previous_secret_expires_at is an expression)
  return { ...(await readView(ctx.db, resources.Webhook, row.id)), secret };
};
