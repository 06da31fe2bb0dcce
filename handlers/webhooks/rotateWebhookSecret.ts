// Written by hand, not declared plain: it makes and seals a new signing secret, answered this once, as
// createWebhook does.
import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { loadOwned } from '../../runtime/ownership.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { seal } from '../../runtime/sealed-secrets.js';
import { newWebhookSecret } from './webhook-rules.js';

/**
 * POST /webhooks/{id}/rotate_secret: the current secret becomes the previous one, which keeps signing beside the
 * new one for overlap_seconds (delivery/signing-secrets.ts); a secret that was still the previous one stops now.
 * The overlap's end is the database's clock, as every delivery compares it with.
 */
export const rotateWebhookSecret: Handler<'rotateWebhookSecret'> = async ({ path, body }, ctx) => {
  const webhook = await loadOwned(ctx, resources.Webhook, path.id, ['webhook:manage'], { read: 'lock' });
  const secret = newWebhookSecret();
  const overlap = body.overlap_seconds;
  await ctx.db('webhooks').where({ id: webhook.id }).update({
    secret: seal(secret),
    previous_secret: overlap > 0 ? webhook.secret : null, // already sealed
    previous_secret_expires_at: overlap > 0 ? ctx.db.raw(`now() + make_interval(secs => ?)`, [overlap]) : null,
    updated_at: ctx.db.fn.now(),
  });
  return { ...(await readView(ctx.db, resources.Webhook, webhook.id)), secret };
};
