// What a v5 subscription receives (imported by the operator: `npm run cli -- operator import-webhook --format v5`):
// the older flat event object, Stripe-like. `object` is "event", `type` names the event, `created` is Unix seconds,
// `company_id` the account, and `data.object` the resource at the pre-versioning model (as v2 payloads carry it).
// Distinct from v2 ({action, created_at, data}) and from v1 ({type, api_version_date, created_at ISO, data}).
import { renderAt } from '../../../runtime/render.js';
import { specData } from '../../../generated/spec-data.js';
import { v2Settings } from '../../../generated/v2-routes.js';
import { testMark, type EventRow } from './envelope.js';

export function v5Envelope(event: EventRow): string {
  const schema = (specData.events as Record<string, string>)[event.type];
  return JSON.stringify({
    id: event.id,
    ...testMark(event),
    object: 'event',
    api_version: 'v5',
    type: event.type,
    created: Math.floor(new Date(event.created_at).getTime() / 1000),
    company_id: event.account_id,
    data: { object: schema ? renderAt(schema, event.data, v2Settings.renderVersion) : event.data },
  });
}
