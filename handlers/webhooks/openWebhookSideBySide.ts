// Written by hand, not declared plain: the window's version is resolved and checked against the pin, its end against
// the database's clock, beyond the fields a plain update writes.
import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { invalid } from '../../runtime/errors.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { parseVersionDate } from '../../runtime/versions.js';
import { operableWebhook } from './operable-webhook.js';
import { MAX_SIDE_BY_SIDE_DAYS } from './side-by-side.js';

const dateOf = (value: unknown) => (value == null ? null : (value instanceof Date ? value.toISOString() : String(value)).slice(0, 10));

/** POST /webhooks/{id}/side_by_side: opens (or replaces) the window; every event is delivered at both versions. */
export const openWebhookSideBySide: Handler<'openWebhookSideBySide'> = async ({ path, body }, ctx) => {
  const webhook = await operableWebhook(ctx, path.id, 'opening a side-by-side window');
  if (webhook.payload_format !== 'v1') {
    throw invalid(`This ${webhook.payload_format} subscription's format fixes its payloads: only a v1 subscription can be delivered at two versions`, 'id');
  }
  const version = parseVersionDate(body.version, 'version');
  if (version === dateOf(webhook.api_version_date)) {
    throw invalid(`version ${version} is the subscription's pin already: name the version it is moving to`, 'version');
  }
  const until = new Date(body.until);
  const now = new Date((await ctx.db.raw('select now() as now')).rows[0].now);
  if (until <= now) throw invalid('until must be in the future: the window lasts until then', 'until');
  if (until.getTime() - now.getTime() > MAX_SIDE_BY_SIDE_DAYS * 86_400_000) {
    throw invalid(`until must be at most ${MAX_SIDE_BY_SIDE_DAYS} days away`, 'until');
  }
  await ctx.db('webhooks').where({ id: webhook.id })
    .update({ side_by_side_version: version, side_by_side_until: until.toISOString(), updated_at: ctx.db.fn.now() });
  return readView(ctx.db, resources.Webhook, webhook.id);
};
