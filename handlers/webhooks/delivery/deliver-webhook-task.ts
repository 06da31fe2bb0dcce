// deliver_webhook: one attempt to POST a delivery, signed; every attempt is recorded. Failures retry with
// exponential backoff over hours; the delivery is failed after the last attempt. A lease marks a delivery being
// sent, so two jobs never send it at once; it names its job, so the same job run again (its worker died mid-send
// and runtime/worker-liveness.ts released it) sends at once. Delivery is at least once: such a re-run may repeat a
// POST the receiver already got.
import { unseal } from '../../../runtime/sealed-secrets.js';
import { withSecretLinks } from './secret-links.js';
import type { Knex } from 'knex';
import { addJob } from '../../../runtime/jobs.js';
import { envelope, fillHiddenForPayload, type EventRow } from './envelope.js';
import { v2Envelope } from './v2-envelope.js';
import { v5Envelope } from './v5-envelope.js';
import { sign } from './signature.js';
import { DELIVER_WEBHOOK_TASK, deliveryJobKey } from './dispatch-event-task.js';
import { postToDestination, RefusedDestination } from '../../../runtime/outbound-request.js';
import { webhookDestinationPolicy } from '../destination-policy.js';
import { whyRefused } from '../webhook-rules.js';

/** Seconds to wait before each retry: 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h (about 16 hours in all). */
export const BACKOFF_SECONDS = [30, 120, 600, 1800, 3600, 7200, 14400, 28800];
export const LEASE_SECONDS = 30;
const TIMEOUT_MS = 10_000;

async function claim(db: Knex, deliveryId: string, jobId: string | null) {
  const [row] = await db('webhook_deliveries')
    .where({ id: deliveryId })
    .where((q) => q.where('status', 'pending').orWhere((s) => s.where('status', 'sending')
      .where((l) => l.where('lease_until', '<', db.fn.now()).modify((m) => { if (jobId) m.orWhere('sending_job_id', jobId); }))))
    .update({
      status: 'sending', lease_until: db.raw(`now() + interval '${LEASE_SECONDS} seconds'`), sending_job_id: jobId, updated_at: db.fn.now(),
    })
    .returning('*');
  return row;
}

/**
 * One POST, to the addresses the url's host resolves to now, each checked first (destination-policy.ts): a name
 * that resolved outside when the subscription was saved and inside now is refused, not connected to.
 */
async function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number | null; error: string | null }> {
  try {
    const { status } = await postToDestination(new URL(url), headers, body, webhookDestinationPolicy(), AbortSignal.timeout(TIMEOUT_MS));
    return { status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` };
  } catch (e) {
    if (e instanceof RefusedDestination) return { status: null, error: `refused: ${e.refusal.reason}, ${whyRefused(e.refusal)}` };
    const err = e as Error & { code?: string };
    if (err.name === 'TimeoutError') return { status: null, error: `timed out after ${TIMEOUT_MS} ms` };
    return { status: null, error: err.code ?? err.message };
  }
}

/** `jobId` is the graphile-worker job running this attempt (none when called directly). */
export async function deliverWebhook(db: Knex, deliveryId: string, jobId: string | null = null): Promise<'succeeded' | 'retrying' | 'failed' | 'skipped'> {
  const delivery = await claim(db, deliveryId, jobId);
  if (!delivery) return 'skipped';
  const webhook = await db('webhooks').where({ id: delivery.webhook_id }).first('url', 'secret', 'enabled', 'api_version_date', 'payload_format', 'deleted_at');
  const event: EventRow = await db('events').where({ id: delivery.event_id }).first('id', 'type', 'account_id', 'data', 'created_at');
  const pin = webhook.api_version_date ? String(webhook.api_version_date instanceof Date
    ? webhook.api_version_date.toISOString() : webhook.api_version_date).slice(0, 10) : null;
  await withSecretLinks(db, event);
  // v2 and v5 (legacy) subscriptions get their own envelopes, their data at the pre-versioning model.
  const legacy = webhook.payload_format === 'v2' || webhook.payload_format === 'v5';
  await fillHiddenForPayload(db, event, pin, legacy);
  const body = webhook.payload_format === 'v2' ? v2Envelope(event)
    : webhook.payload_format === 'v5' ? v5Envelope(event) : envelope(event, pin);
  const timestamp = Math.floor(Date.now() / 1000);
  const started = performance.now();
  // A deleted subscription's deliveries still queued close without a send (its row stays: they are its history).
  const refused = webhook.deleted_at ? 'the subscription was deleted' : !webhook.enabled ? 'the subscription is disabled' : null;
  const result = !refused
    ? await post(webhook.url, {
      'content-type': 'application/json',
      'user-agent': 'CommercePlatform-Webhooks/1.0',
      'webhook-id': delivery.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': sign(unseal(webhook.secret), delivery.id, timestamp, body),
    }, body)
    : { status: null, error: refused };
  const attempt = delivery.attempts + 1;
  return db.transaction(async (trx) => {
    await trx('webhook_delivery_attempts').insert({
      delivery_id: delivery.id, attempt, response_status: result.status, error: result.error,
      duration_ms: Math.round(performance.now() - started),
    });
    const common = { attempts: attempt, lease_until: null, sending_job_id: null, last_response_status: result.status, updated_at: trx.fn.now() };
    if (!result.error) {
      await trx('webhook_deliveries').where({ id: delivery.id }).update({ ...common, status: 'succeeded', delivered_at: trx.fn.now(), next_attempt_at: null });
      return 'succeeded' as const;
    }
    const wait = BACKOFF_SECONDS[attempt - 1];
    if (wait === undefined || refused) {
      await trx('webhook_deliveries').where({ id: delivery.id }).update({ ...common, status: 'failed', next_attempt_at: null });
      return 'failed' as const;
    }
    const runAt = new Date(Date.now() + wait * 1000);
    await trx('webhook_deliveries').where({ id: delivery.id }).update({ ...common, status: 'pending', next_attempt_at: runAt.toISOString() });
    await addJob(trx, DELIVER_WEBHOOK_TASK, { delivery_id: delivery.id }, { jobKey: deliveryJobKey(delivery.id), runAt });
    return 'retrying' as const;
  });
}
