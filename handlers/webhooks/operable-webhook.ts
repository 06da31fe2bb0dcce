// The subscription a resend, a replay or a test acts on: the caller's (webhook:manage), locked so that its settings
// hold while the request queues work for it, and enabled, since a disabled one would have nothing sent.
import type { HandlerContext } from '../../generated/handler.js';
import type { WebhookRow } from '../../generated/rows.js';
import { resources } from '../../generated/resources.js';
import { ApiError } from '../../runtime/errors.js';
import { loadOwned } from '../../runtime/ownership.js';

export async function operableWebhook(ctx: HandlerContext, id: string, doing: string): Promise<WebhookRow> {
  const webhook = await loadOwned(ctx, resources.Webhook, id, ['webhook:manage'], { read: 'lock' });
  if (!webhook.enabled) {
    throw new ApiError(400, 'invalid_state', `This webhook is disabled: enable it (PATCH /webhooks/${id} with enabled true) before ${doing}`, 'id');
  }
  return webhook;
}
