// A subscription's health: since when its deliveries have all failed, and the platform disabling it when its
// receiver is gone (a 410) or has failed for the declared time (spec/api.yaml webhook_delivery). Disabling records
// webhook.disabled, whose notification to the account's team migration 615 writes (the trigger on events), and
// leaves its reason and time on the subscription until PATCH enabled true (webhook-rules.ts reEnabled).
import type { Knex } from 'knex';
import { recordEvent } from '../../../runtime/events.js';
import { readView } from '../../../runtime/plain/stored-resource.js';
import { resources } from '../../../generated/resources.js';
import { DELIVERY } from './retry-schedule.js';

export type DisabledReason = 'gone' | 'failing';

/** A success ends the failures. */
export async function noteSuccess(trx: Knex, webhookId: string): Promise<void> {
  await trx('webhooks').where({ id: webhookId }).whereNotNull('failing_since').update({ failing_since: null });
}

/**
 * A failed attempt at `now` (the subscription's business time: its account's clock when it is on one). Answers the
 * reason to disable it for, if any: `gone` on a 410, `failing` once every attempt has failed for the declared time.
 */
export async function noteFailure(trx: Knex, webhookId: string, now: Date, status: number | null): Promise<DisabledReason | null> {
  if (status === 410) return 'gone';
  const [row] = await trx('webhooks').where({ id: webhookId })
    .update({ failing_since: trx.raw('coalesce(failing_since, ?::timestamptz)', [now.toISOString()]) })
    .returning('failing_since');
  const since = row ? new Date(row.failing_since).getTime() : now.getTime();
  return now.getTime() - since >= DELIVERY.disableAfterFailingSeconds * 1000 ? 'failing' : null;
}

/** Disables a subscription that is still enabled, says why and when, and records webhook.disabled (once). */
export async function disableSubscription(trx: Knex, webhookId: string, reason: DisabledReason, now: Date): Promise<boolean> {
  const [row] = await trx('webhooks').where({ id: webhookId, enabled: true }).whereNull('deleted_at')
    .update({ enabled: false, disabled_at: now.toISOString(), disabled_reason: reason, updated_at: trx.raw("date_trunc('milliseconds', now())") })
    .returning(['id', 'account_id']);
  if (!row) return false;
  await recordEvent(trx, 'webhook.disabled', row.account_id, await readView(trx, resources.Webhook, row.id));
  return true;
}
