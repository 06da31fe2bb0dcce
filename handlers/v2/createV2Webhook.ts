// POST /api/v2/webhooks: the Current create (POST /webhooks), and the subscription marked to keep v2-format
// payloads (delivery/v2-envelope.ts), in one transaction. Only this route sets payload_format: the Current API
// has no field for it, so /api/v1 can neither create a v2 subscription nor switch one to v2.
import type { V2Adapter } from '../../runtime/v2/route.js';

export const createV2Webhook: V2Adapter = async ({ input, inTransaction }) =>
  inTransaction(async (call, db) => {
    const webhook = await call('createWebhook', { body: input.body });
    await db('webhooks').where({ id: webhook.id }).update({ payload_format: 'v2' });
    return webhook;
  });
