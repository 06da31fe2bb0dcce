// A refund settled before any ruling prevents the payment's chargeback. Its own module, importing nothing of the
// refunds or payments areas, so the refund job (handlers/refunds/settle-refund.ts) calls it without a loop through
// the network (network.ts creates refunds): imports point one way, never back into the network.
import type { Knex } from 'knex';
import { recordEvent } from '../../runtime/events.js';
import { transition } from '../../runtime/state-machine.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { nowMs } from '../shared/now.js';
import { disputeReturnedEntry, type PaymentClearing } from './dispute-ledger.js';
import { postEntries, type Entry } from '../ledger/post.js';

/** A refund settled on a payment (handlers/refunds/settle-refund.ts, in its transaction): it prevents the chargeback
 * of an actionable alert, and a dispute before any ruling becomes prevented with its amount returned. `refund` is the
 * refund's own entries (its entry, and the partner's reversal when there is one). */
export async function preventByRefund(trx: Knex, payment: PaymentClearing & { id: string }, refund: Entry[]): Promise<void> {
  // The refund's entries and the disputes' returns go in one statement, so their balance rows lock in one order.
  const entries = [...refund];
  const paymentId = payment.id;
  const alerts = await trx('dispute_alerts').where({ payment_id: paymentId, outcome: 'pending' })
    .where('actionable_until', '>', nowMs(trx)).forUpdate();
  for (const alert of alerts) {
    await trx('dispute_alerts').where({ id: alert.id }).update({ outcome: 'prevented', updated_at: nowMs(trx) });
    await recordEvent(trx, 'dispute_alert.updated', alert.account_id, await readView(trx, resources.DisputeAlert, alert.id));
  }
  const disputes = await trx('disputes').where({ payment_id: paymentId }).whereIn('status', ['needs_response', 'under_review']).forUpdate();
  for (const d of disputes) {
    await trx('disputes').where({ id: d.id })
      .update({ status: transition('Dispute', d.status, 'prevent'), resolved_at: nowMs(trx), updated_at: nowMs(trx) });
    entries.push(await disputeReturnedEntry(trx, d, 'prevented', payment));
    await recordEvent(trx, 'dispute.prevented', d.account_id, await readView(trx, resources.Dispute, d.id));
  }
  await postEntries(trx, entries);
}
