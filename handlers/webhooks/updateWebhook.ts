import type { UpdateHook } from '../../generated/plain-hooks.js';
import { invalid } from '../../runtime/errors.js';
import { checkEvents, checkPayloadFormat, checkPin, checkUrl } from './webhook-rules.js';

/**
 * PATCH /webhooks/{id} (plain update): the sent settings, checked as on create, before they are written. The older
 * api_version input (pins before 2026-08-07) can move a v2 or v5 subscription to v1, never to v2 or v5; a legacy
 * subscription stays unpinned, its format fixing its payloads (migration 585 keeps it so).
 */
export const updateWebhook: UpdateHook<'updateWebhook'> = async (webhook, body) => {
  checkPayloadFormat(body.api_version);
  const checked = { ...body };
  // null and v1 on a v1 subscription change nothing; v1 on a legacy one is written (payload_format).
  if (body.api_version === null || body.api_version === undefined) delete checked.api_version;
  const format = checked.api_version ?? webhook.payload_format;
  if (body.url !== undefined) checked.url = await checkUrl(body.url);
  if (body.events !== undefined) checked.events = checkEvents(body.events) as typeof body.events;
  if (body.api_version_date !== undefined) checked.api_version_date = checkPin(body.api_version_date);
  if (checked.api_version_date && format !== 'v1') {
    throw invalid(`api_version_date cannot pin this ${format} subscription: its ${format} format fixes its payloads `
      + '(data at the pre-versioning model); leave it unpinned', 'api_version_date');
  }
  return checked;
};
