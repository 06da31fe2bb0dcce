// Written by hand, not declared plain: a v2 adapter over POST /webhooks that also switches the subscription to v2 payloads.
// POST /api/v2/webhooks: the Current create (POST /webhooks), and the subscription made a v2 one (v2-format payloads,
// delivery/v2-envelope.ts; api_version v2 at every version), in one transaction. Only this route and the operator's
// import (handlers/webhooks/import-legacy-webhook.ts) make legacy subscriptions: the Current API has no input for it,
// so /api/v1 can neither create a v2 subscription nor switch one to v2. A v2 subscription is unpinned: its format,
// not a version date, fixes its payloads.
import type { V2Adapter } from '../../runtime/v2/route.js';
import { invalid } from '../../runtime/errors.js';

export const createV2Webhook: V2Adapter = async ({ input, inTransaction }) => {
  if (input.body?.api_version_date != null) {
    throw invalid('api_version_date cannot pin a v2 subscription: its v2 format fixes its payloads; leave it out', 'api_version_date');
  }
  return inTransaction(async (call, db) => {
    const webhook = await call('createWebhook', { body: input.body });
    await db('webhooks').where({ id: webhook.id }).update({ payload_format: 'v2' });
    return { ...webhook, api_version: 'v2' };
  });
};
