// A refund settled before any ruling prevents the payment's chargeback. The refund job (handlers/refunds/settle-refund.ts)
// calls it through the refunds' follow-ups port (handlers/refunds/refund-follow-ups-port.ts): the disputes area
// creates refunds (network.ts), so the refunds area cannot import it back.
import type { Knex } from 'knex';
import { recordEvent } from '../../generated/events.js';
import { transition } from '../../generated/state-machine.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { nowMs } from '../shared/now.js';
import { disputeReturnedEntry, type PaymentClearing } from './dispute-ledger.js';
import type { Entry } from '../ledger/index.js';

/** A refund settled on a payment (handlers/refunds/settle-refund.ts, in its transaction): it prevents the chargeback
 * of an actionable alert, and a dispute before any ruling becomes prevented with its amount returned. The returns'
 * entries, which the refund posts with its own in one statement, so their balance rows lock in one order. */
export async function preventByRefund(trx: Knex, payment: PaymentClearing & { id: string }): Promise<Entry[]> {
  const entries: Entry[] = [];
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
  return entries;
}
