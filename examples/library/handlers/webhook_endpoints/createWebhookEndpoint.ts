import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { newId } from '../../../../runtime/ids.js';
import { readView } from '../../../../runtime/plain/stored-resource.js';

/** POST /webhook_endpoints: events are rendered at the version the caller registered it with. */
export const createWebhookEndpoint: Handler<'createWebhookEndpoint'> = async ({ body }, ctx) => {
  const id = newId('whep_');
  await ctx.db('webhook_endpoints').insert({ id, account_id: body.account_id, url: body.url, events: body.events, api_version: ctx.version });
  return readView(ctx.db, resources.WebhookEndpoint, id);
};
