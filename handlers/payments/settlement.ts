// A payment's money arriving: collection approved (succeed) or an authorized hold captured (capture). Fees, the
// ledger, fulfilment, the card save asked for with save_payment_method and the events all happen in the caller's
// transaction, or none of them does.
import type { Knex } from 'knex';
import type { EventType } from '../../generated/spec-data.js';
import { transition } from '../../generated/state-machine.js';
import { cardProcessor } from '../shared/card-processor-port.js';
import { savedMethodId } from '../setup_intents/index.js';
import { paymentOutcomes } from './payment-outcomes-port.js';
import { settledEntry } from './ledger.js';
import { postEntries } from '../ledger/index.js';
import { loadPaymentView, type PaymentRow } from './payment-view.js';
import { nowMs } from '../shared/now.js';
import { settlementScheme } from './card-scheme-port.js';
import { accruePartnerEarning } from '../partners/index.js';
import { countSettledVolume } from '../accounts/index.js';

export type Emit = (type: EventType, accountId: string | null, data: unknown) => Promise<void>;

export async function settlePayment(db: Knex, payment: PaymentRow, action: 'succeed' | 'capture', emit: Emit): Promise<void> {
  const status = transition('Payment', payment.status, action);
  const total = Number(payment.total);
  const fees = cardProcessor().feesFor(total);
  const stamp = nowMs(db);
  const fee = (type: string, origin: string, label: string, description: string, amount: number) => ({
    payment_id: payment.id, type, origin, label, description, amount, currency: payment.currency,
    settlement_amount: amount, settlement_currency: payment.currency, collected_at: stamp,
  });
  await db('payment_fees').insert([
    fee('processing_fee', 'processor', 'Processing fee', '2.9% + 30 minor units', fees.processing),
    fee('platform_fee', 'platform', 'Platform fee', '1% of the total', fees.platform),
  ]);
  const feeTotal = fees.processing + fees.platform;
  const settled = await settledEntry(db, { id: payment.id, account_id: payment.account_id, currency: payment.currency, total }, feeTotal);
  // A referred account's partner earns its share of the platform fee in this same transaction, in the same statement.
  const earned = await accruePartnerEarning(db, { id: payment.id, account_id: payment.account_id, currency: payment.currency, total, product_id: payment.product_id ?? null }, fees.platform);
  // The seller's lifetime volume grows by usd_total and any milestone it reaches pays its reward, posted with the rest.
  const rewards = await countSettledVolume(db, payment.id, emit);
  await postEntries(db, [settled, ...(earned ? [earned] : []), ...rewards]);
  const fulfilment = await paymentOutcomes().paid(db, payment);
  const paymentMethodId = await savedCard(db, payment, fulfilment.memberId) ?? payment.payment_method_id;
  await db('payments').where({ id: payment.id }).update({
    status,
    fee_amount: feeTotal,
    payment_method_id: paymentMethodId,
    member_id: fulfilment.memberId,
    membership_id: fulfilment.membershipId,
    settlement_time_at: stamp,
    last_payment_attempt_at: action === 'succeed' ? stamp : payment.last_payment_attempt_at,
    next_payment_attempt_at: null,
    updated_at: stamp,
  });
  await emit('payment.succeeded', payment.account_id, await loadPaymentView(db, payment.id));
  if (fulfilment.activated) await emit('membership.activated', payment.account_id, fulfilment.activated);
  // The sandbox card network's test cards report on the payment later (chargebacks, alerts: docs/sandbox/card-scheme.md).
  await settlementScheme().settled(db, payment);
}

/** With save_payment_method, the confirmation token's card becomes a saved method of the buyer's member (now that
 * fulfilment made them one), saved by the setup intents' own code; its id, or null when nothing is to be saved. */
async function savedCard(db: Knex, payment: PaymentRow, memberId: string | null): Promise<string | null> {
  if (!payment.save_payment_method || !payment.confirmation_token_id || !memberId) return null;
  const token = await db('confirmation_tokens').where({ id: payment.confirmation_token_id }).first();
  return savedMethodId(db, { account_id: payment.account_id, user_id: payment.user_id, member_id: memberId }, token);
}
