// deliver_webhook: one attempt to POST a delivery, signed; every attempt is recorded. Failures retry on the schedule
// spec/api.yaml declares (about 3 days, jittered; Retry-After heeded: retry-schedule.ts); the delivery is failed after
// the last attempt, or at once on a 410, which disables the subscription, as 5 days of failures do
// (subscription-health.ts). On a sandbox clock the retries wait for the clock of the subscription's account and the
// failures are timed by it, while each POST goes out (and is signed) at the wall's time, where receivers live.
// A subscription's deliveries run in its own queue (delivery-queue.ts): one at a time, in order. A lease marks a
// delivery being sent, so two jobs never send it at once; it names its job, so the same job run again (its worker
// died mid-send and runtime/worker-liveness.ts released it) sends at once. Delivery is at least once: such a re-run
// may repeat a POST the receiver already got.
import { withSecretLinks } from './secret-links.js';
import type { Knex } from 'knex';
import { addJob } from '../../../runtime/jobs.js';
import { envelope, fillHiddenForPayload, type EventRow } from './envelope.js';
import { v2Envelope } from './v2-envelope.js';
import { v5Envelope } from './v5-envelope.js';
import { SIGNING_COLUMNS, signatureHeader } from './signing-secrets.js';
import { DELIVER_WEBHOOK_TASK, deliveryJobKey } from './dispatch-event-task.js';
import { postToDestination, RefusedDestination } from '../../../runtime/outbound-request.js';
import { webhookDestinationPolicy } from '../destination-policy.js';
import { whyRefused } from '../webhook-rules.js';
import { DELIVERY, retryAfterSeconds, retryDelaySeconds, waitFor } from './retry-schedule.js';
import { disableSubscription, noteFailure, noteSuccess } from './subscription-health.js';
import { deliveryQueue } from './delivery-queue.js';
import { subscriptionClock } from './subscription-clock.js';
import { runOnClock } from '../../../runtime/clock.js';

export const LEASE_SECONDS = 30;
const TIMEOUT_MS = DELIVERY.timeoutSeconds * 1000;

async function claim(db: Knex, deliveryId: string, jobId: string | null) {
  const [row] = await db('webhook_deliveries')
    .where({ id: deliveryId })
    .where((q) => q.where('status', 'pending').orWhere((s) => s.where('status', 'sending')
      .where((l) => l.where('lease_until', '<', db.fn.now()).modify((m) => { if (jobId) m.orWhere('sending_job_id', jobId); }))))
    .update({
      // at the wall's time even on a clock: the sweep reads leases at the wall's time
      status: 'sending', lease_until: db.raw(`pg_catalog.now() + interval '${LEASE_SECONDS} seconds'`), sending_job_id: jobId, updated_at: db.fn.now(),
    })
    .returning('*');
  return row;
}

/**
 * One POST, to the addresses the url's host resolves to now, each checked first (destination-policy.ts): a name
 * that resolved outside when the subscription was saved and inside now is refused, not connected to.
 */
type Result = { status: number | null; error: string | null; retryAfter?: string | null };

async function post(url: string, headers: Record<string, string>, body: string): Promise<Result> {
  try {
    const { status, retryAfter } = await postToDestination(new URL(url), headers, body, webhookDestinationPolicy(), AbortSignal.timeout(TIMEOUT_MS));
    return { status, error: status >= 200 && status < 300 ? null : `HTTP ${status}`, retryAfter };
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
  const webhook = await db('webhooks').where({ id: delivery.webhook_id })
    .first('id', 'account_id', 'url', ...SIGNING_COLUMNS, 'enabled', 'api_version_date', 'payload_format', 'deleted_at');
  const event: EventRow = await db('events').where({ id: delivery.event_id }).first('id', 'type', 'account_id', 'data', 'created_at');
  // A test event (POST /webhooks/{id}/test) is stored with no account, so nothing else acts on it: its payload names
  // the subscription's account and says test.
  if (delivery.test) Object.assign(event, { test: true, account_id: webhook.account_id });
  // A side-by-side window's second delivery names its version; any other renders at the pin as it is now.
  const rendered = delivery.api_version_date ?? webhook.api_version_date;
  const pin = rendered ? String(rendered instanceof Date ? rendered.toISOString() : rendered).slice(0, 10) : null;
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
  const result: Result = !refused
    ? await post(webhook.url, {
      'content-type': 'application/json',
      'user-agent': 'CommercePlatform-Webhooks/1.0',
      'webhook-id': delivery.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(webhook, delivery.id, timestamp, body), // two while a rotation overlaps
      // the version the payload is rendered at, so a receiver of a side-by-side window tells the two apart unparsed
      ...(legacy ? {} : { 'webhook-version': pin ?? 'unpinned' }),
    }, body)
    : { status: null, error: refused };
  const attempt = delivery.attempts + 1;
  // The subscription's business time: its account's clock when on one (its retries then wait as the clock's timers).
  const clock = await subscriptionClock(db, webhook.account_id);
  const now = clock ? new Date(clock.now) : new Date();
  const record = () => db.transaction(async (trx) => {
    await trx('webhook_delivery_attempts').insert({
      delivery_id: delivery.id, attempt, response_status: result.status, error: result.error,
      duration_ms: Math.round(performance.now() - started),
    });
    const common = { attempts: attempt, lease_until: null, sending_job_id: null, last_response_status: result.status, updated_at: trx.fn.now() };
    if (!result.error) {
      await trx('webhook_deliveries').where({ id: delivery.id }).update({ ...common, status: 'succeeded', delivered_at: trx.fn.now(), next_attempt_at: null });
      await noteSuccess(trx, webhook.id);
      return 'succeeded' as const;
    }
    // A failure of the receiver (not a send refused because the subscription is off) counts towards disabling it.
    const disableFor = refused ? null : await noteFailure(trx, webhook.id, now, result.status);
    if (disableFor) await disableSubscription(trx, webhook.id, disableFor, now);
    const scheduled = retryDelaySeconds(delivery.id, attempt);
    if (scheduled === null || refused || disableFor) {
      await trx('webhook_deliveries').where({ id: delivery.id }).update({ ...common, status: 'failed', next_attempt_at: null });
      return 'failed' as const;
    }
    const wait = waitFor(scheduled, result.status, retryAfterSeconds(result.retryAfter ?? null, new Date()));
    const runAt = new Date(now.getTime() + wait * 1000);
    await trx('webhook_deliveries').where({ id: delivery.id }).update({ ...common, status: 'pending', next_attempt_at: runAt.toISOString() });
    await addJob(trx, DELIVER_WEBHOOK_TASK, { delivery_id: delivery.id },
      { jobKey: deliveryJobKey(delivery.id), runAt, queueName: deliveryQueue(webhook.id) });
    return 'retrying' as const;
  });
  return clock ? runOnClock(clock, record) : record();
}
