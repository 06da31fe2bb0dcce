import type { UpdateHook } from '../../runtime/plain/hooks.js';
import { checkEvents, checkPayloadFormat, checkPin, checkUrl } from './webhook-rules.js';

/** PATCH /webhooks/{id} (plain update): the sent settings, checked as on create, before they are written. */
export const updateWebhook: UpdateHook<'updateWebhook'> = async (_webhook, body) => {
  checkPayloadFormat(body.api_version);
  const checked = { ...body };
  if (body.url !== undefined) checked.url = await checkUrl(body.url);
  if (body.events !== undefined) checked.events = checkEvents(body.events) as typeof body.events;
  if (body.api_version_date !== undefined) checked.api_version_date = checkPin(body.api_version_date);
  return checked;
};
