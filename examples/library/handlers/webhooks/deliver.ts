// Webhook delivery for the library: each event (runtime/events.ts writes it with a dispatch_event job) is POSTed
// once to every endpoint of its library subscribed to its type, its data rendered at the endpoint's version. A
// failed POST fails the job, so graphile-worker retries it; endpoints that already answered 2xx are not sent again.
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { DISPATCH_EVENT_TASK } from '../../../../runtime/events.js';
import { renderAt } from '../../../../runtime/render.js';
import { api } from '../../../../runtime/api-definition.js';
import { formatDate } from '../../../../runtime/auth.js';
import { postToDestination } from '../../../../runtime/outbound-request.js';

/** Loopback endpoints are allowed only where a developer runs the API on their machine (and in its tests). */
const policy = { allowPrivate: process.env.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS === 'true' };

async function dispatch(db: Knex, eventId: string): Promise<void> {
  const event = await db('events').where({ id: eventId }).first();
  if (!event) return;
  const endpoints = await db('webhook_endpoints').where({ account_id: event.account_id }).whereRaw('? = any(events)', [event.type])
    .whereNotExists(db('webhook_deliveries').where({ event_id: eventId, status: 200 }).whereRaw('endpoint_id = webhook_endpoints.id'));
  const failures: string[] = [];
  for (const endpoint of endpoints) {
    const version = formatDate(endpoint.api_version);
    const body = JSON.stringify({
      id: event.id, type: event.type, api_version: version, created_at: new Date(event.created_at).toISOString(),
      data: renderAt(api().spec.events[event.type], event.data, version),
    });
    const answer = await postToDestination(new URL(endpoint.url), { 'content-type': 'application/json', 'webhook-id': event.id }, body,
      policy, AbortSignal.timeout(10_000)).catch((e: Error) => ({ status: 0, error: e.message }));
    await db('webhook_deliveries').insert({ event_id: eventId, endpoint_id: endpoint.id, status: answer.status })
      .onConflict(['event_id', 'endpoint_id']).merge();
    if (answer.status < 200 || answer.status > 299) failures.push(`${endpoint.url}: ${'error' in answer ? answer.error : answer.status}`);
  }
  if (failures.length) throw new Error(`delivery of ${eventId} failed: ${failures.join('; ')}`);
}

export function webhookTasks(db: Knex): TaskList {
  return { [DISPATCH_EVENT_TASK]: async (payload) => dispatch(db, (payload as { event_id: string }).event_id) };
}
