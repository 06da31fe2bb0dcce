// What a subscription created through the v2 API receives: v2's envelope (`action` names the event, `company_id`
// the account, `created_at` is Unix seconds) with the data in the v2 shape, the resource at the v2 render version.
import { renderAt } from '../../../runtime/render.js';
import { specData } from '../../../generated/spec-data.js';
import { v2Settings } from '../../../generated/v2-routes.js';
import { testMark, type EventRow } from './envelope.js';

export function v2Envelope(event: EventRow): string {
  const schema = (specData.events as Record<string, string>)[event.type];
  return JSON.stringify({
    id: event.id,
    ...testMark(event),
    action: event.type,
    api_version: 'v2',
    company_id: event.account_id,
    created_at: Math.floor(new Date(event.created_at).getTime() / 1000),
    data: schema ? renderAt(schema, event.data, v2Settings.renderVersion) : event.data,
  });
}
