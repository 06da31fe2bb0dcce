// refund_payment: the sandbox processor settles a pending refund. On success the payment's refunded amounts grow
// (the tax part in proportion), its status follows, and the ledger takes the amount back; on refusal only the
// refund changes. Idempotent: a refund no longer pending is left alone.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { transition } from '../../generated/state-machine.js';
import { cardProcessor } from '../shared/card-processor-port.js';
import { refundEntry } from './refund-ledger.js';
import { recordEvent } from '../../generated/events.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { refundFollowUps } from './refund-follow-ups-port.js';
import { postEntries } from '../ledger/index.js';
import { reversePartnerEarning } from '../partners/index.js';
import { recountVolume } from '../accounts/index.js';

export const REFUND_PAYMENT = 'refund_payment';

export async function settleRefund(db: Knex, refundId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const refund = await trx('refunds').where({ id: refundId }).forUpdate().first();
    if (!refund || refund.status !== 'pending') return;
    const payment = await trx('payments').where({ id: refund.payment_id }).forUpdate().first();
    const stamp = nowMs(trx);
    const decision = cardProcessor().decideRefund(await cardProcessor().cardBehaviourOf(trx, payment));
    if (!decision.approved) {
      const [failed] = await trx('refunds').where({ id: refundId })
        .update({ status: transition('Refund', refund.status, 'fail'), failure_reason: decision.reason, updated_at: stamp }).returning('*');
      await recordEvent(trx, 'refund.failed', failed.account_id, resources.Refund.view(failed));
      return;
    }
    const amount = Number(refund.amount);
    const total = Number(payment.total);
    const refunded = Number(payment.refunded_amount) + amount;
    const taxRefunded = Number((BigInt(refunded) * BigInt(payment.tax_amount) + BigInt(total >> 1)) / BigInt(total));
    const [succeeded] = await trx('refunds').where({ id: refundId })
      .update({ status: transition('Refund', refund.status, 'succeed'), updated_at: stamp }).returning('*');
    await trx('payments').where({ id: payment.id }).update({
      status: transition('Payment', payment.status, refunded >= total ? 'refund_fully' : 'refund_partially'),
      refunded_amount: refunded,
      tax_refunded_amount: taxRefunded,
      updated_at: stamp,
    });
    // A refund before any ruling prevents the payment's chargeback (alerts and disputes: handlers/disputes/prevent-by-refund.ts),
    // and the refund's entries are posted with the disputes' returns.
    // The partner's commission on what went back to the buyer is taken back with it (handlers/partners/reverse.ts).
    const reversal = await reversePartnerEarning(trx, payment.id, refund.id, 'refund');
    await recountVolume(trx, payment.id); // the seller's lifetime volume loses what went back (accounts/lifetime-volume.ts)
    const own = [
      await refundEntry(trx, { id: refund.id, account_id: refund.account_id, currency: refund.currency, amount }),
      ...(reversal ? [reversal] : []),
    ];
    await postEntries(trx, [...own, ...await refundFollowUps().preventChargebacks(trx, payment)]);
    // A payment refunded in full ends its Resolution Center case (handlers/resolution_center_cases/case-steps.ts).
    if (refunded >= total) await refundFollowUps().refundedInFull(trx, payment.id, refund.id);
    await recordEvent(trx, 'refund.succeeded', succeeded.account_id, resources.Refund.view(succeeded));
  });
}

export const refundPaymentTask = (db: Knex): Task => async (payload) => {
  await settleRefund(db, (payload as { refund_id: string }).refund_id);
};
