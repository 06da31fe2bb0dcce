// Collecting a failed renewal again (POST /payments/{id}/retry, or the dunning schedule: period-step.ts): it charges
// the buyer's renewal card as it is now (a card saved since the failure is the default: renewal-card.ts), deciding
// again whether that card needs the buyer (it cannot have them), and the membership is not due while it is collected.
import type { Knex } from 'knex';
import { ApiError } from '../../runtime/errors.js';
import type { RenewalPayment } from './renewal-outcome.js';
import { cardProcessor, type CardBehaviour, type ThreeDSecurePolicy } from '../shared/card-processor-port.js';
import { renewalCardOf } from './renewal-card.js';
import { transition } from '../../generated/state-machine.js';
import { recordEvent } from '../../generated/events.js';
import { nowMs } from '../shared/now.js';
import { loadPaymentView } from '../payments/index.js';

const RENEWABLE = ['trialing', 'active', 'past_due'];

/** The payment's column changes for the retry; a 400 when its membership has ended or is paused. */
export async function renewalRetryChanges(db: Knex, payment: RenewalPayment): Promise<Record<string, unknown>> {
  const membership = await db('memberships').where({ id: payment.membership_id }).forUpdate().first();
  if (!membership || !RENEWABLE.includes(membership.status)) {
    throw new ApiError(400, 'invalid_state',
      `This renewal's membership is ${membership?.status ?? 'gone'}; a renewal is collected only while its membership is trialing, active or past_due`,
      'status', { 'x-should-retry': 'false' });
  }
  await db('memberships').where({ id: membership.id }).update({ due_at: null });
  const cardId = await renewalCardOf(db, membership);
  if (!cardId || cardId === payment.payment_method_id) return {};
  const card = await db('payment_methods').where({ id: cardId }).first();
  const behaviour = (card.test_behaviour ?? 'succeeds') as CardBehaviour;
  return {
    payment_method_id: card.id,
    payment_instrument: JSON.stringify({ brand: card.card_brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year }),
    authentication: cardProcessor().needsAuthentication(behaviour, payment.three_d_secure_policy as ThreeDSecurePolicy, false) ? 'required' : 'not_required',
  };
}

/** Voids the membership's failed renewals (a pause with void_payments): canceled, never collected again. Their holds
 * were given back when they failed; payment.canceled is recorded for each. */
export async function voidFailedRenewals(db: Knex, membershipId: string): Promise<void> {
  const failed = await db('payments').where({ membership_id: membershipId, billing_reason: 'subscription_cycle', status: 'failed' })
    .forUpdate().select('id', 'account_id', 'status');
  for (const payment of failed) {
    await db('payments').where({ id: payment.id })
      .update({ status: transition('Payment', payment.status, 'abandon'), next_payment_attempt_at: null, updated_at: nowMs(db) });
    await recordEvent(db, 'payment.canceled', payment.account_id, await loadPaymentView(db, payment.id));
  }
}
