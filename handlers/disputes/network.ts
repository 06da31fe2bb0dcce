// The card scheme's reports, applied by the disputes area: after a payment the scheme (card-scheme-port.ts; the
// sandbox's is sandbox/card_scheme/) may report a chargeback, an early fraud warning, a dispute alert or a rapid
// dispute resolution, and it rules on filed evidence; this area opens the disputes and alerts, moves their money
// and closes them at their deadlines. Every step runs in one transaction with its row locked and re-read, and does
// nothing when the row has moved on, so a re-run job is harmless. A refund's prevention of a chargeback is
// prevent-by-refund.ts: apart, so refunds reach it without looping back through this module.
import type { Knex } from 'knex';
import { addJob } from '../../runtime/jobs.js';
import { clockNow } from '../../runtime/clock.js';
import { recordEvent } from '../../generated/events.js';
import { transition } from '../../generated/state-machine.js';
import { newId } from '../../runtime/ids.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { nowMs } from '../shared/now.js';
import type { PaymentRow } from '../shared/payment-row.js';
import { lockWithPayment } from '../shared/lock-with-payment.js';
import { createPendingRefund, refundableRemaining } from '../refunds/index.js';
import { loadPreferences } from '../account_preferences/index.js';
import { reversePartnerEarning } from '../partners/index.js';
import { recountVolume } from '../accounts/index.js';
import { alertFee, disputeFee, disputeReturnedEntry, postAlertFee, postDisputeOpened } from './dispute-ledger.js';
import { postEntries } from '../ledger/index.js';
import { emptyEvidence } from './evidence.js';
import type { DisputeEvidence } from '../../generated/types.js';
import { fightDisputeJob, networkDelay as after, submitEvidence } from './submit.js';
import { chargebackFollowUps } from './chargeback-follow-ups-port.js';

export const ALERT_WINDOW_END = 'dispute_alert_window_end';
export const DISPUTE_DEADLINE = 'dispute_deadline';

/** The alert window, in seconds, scaled by DISPUTE_NETWORK_SECONDS (submit.ts). The response window is the networks'
 * usual seven days and is not scaled. */
const DELAYS = { alertWindow: 600 };
export const RESPONSE_WINDOW_SECONDS = 7 * 24 * 3600;

/** What the scheme reports on a settled payment. */
export type SchemeReport =
  | { kind: 'chargeback'; reason: string }
  | { kind: 'alert'; type: 'early_fraud_warning' | 'dispute_alert' }
  | { kind: 'rapid_dispute_resolution' };

/** The scheme's report on a settled payment, applied: an alert or a dispute, once per payment. The payment is
 * locked and still settled, with neither, when `report` is asked (in the same transaction, `trx`). */
export async function takeNetworkReport(db: Knex, paymentId: string,
  report: (payment: PaymentRow, trx: Knex) => Promise<SchemeReport | null>): Promise<void> {
  await db.transaction(async (trx) => {
    const payment: PaymentRow | undefined = await trx('payments').where({ id: paymentId }).forUpdate().first();
    if (!payment || !['succeeded', 'partially_refunded'].includes(payment.status)) return;
    if (await trx('dispute_alerts').where({ payment_id: paymentId }).first('id')) return;
    if (await trx('disputes').where({ payment_id: paymentId }).first('id')) return;
    const reported = await report(payment, trx);
    if (reported?.kind === 'chargeback') await chargeBack(trx, payment, reported.reason, null);
    else if (reported?.kind === 'alert') await raiseAlert(trx, payment, reported.type);
    else if (reported?.kind === 'rapid_dispute_resolution') await resolveRapidly(trx, payment);
  });
}

const disputedAmount = (p: PaymentRow) => Number(p.total) - Number(p.refunded_amount);

/** A chargeback: the disputed amount and the fee leave the pending balance; the deadline (and the dispute fighter,
 * when the account turned it on) are queued. */
export async function openDispute(trx: Knex, payment: PaymentRow, reason: string, alertId: string | null): Promise<string | null> {
  const amount = disputedAmount(payment);
  if (amount <= 0) return null;
  const id = newId('dspt_');
  const [row] = await trx('disputes').insert({
    id, account_id: payment.account_id, payment_id: payment.id, product_id: payment.product_id, plan_id: payment.plan_id,
    user_id: payment.user_id, member_id: payment.member_id, alert_id: alertId, status: 'needs_response', reason,
    currency: payment.currency, amount, fee: disputeFee(payment.currency), evidence: JSON.stringify(emptyEvidence()),
    response_due_at: trx.raw(`date_trunc('milliseconds', now()) + make_interval(secs => ?)`, [RESPONSE_WINDOW_SECONDS]),
  }).returning('*');
  await postDisputeOpened(trx, row);
  await recordEvent(trx, 'dispute.created', row.account_id, await readView(trx, resources.Dispute, id));
  await addJob(trx, DISPUTE_DEADLINE, { dispute_id: id }, { jobKey: `${DISPUTE_DEADLINE}:${id}`, runAt: new Date(row.response_due_at) });
  if ((await loadPreferences(trx, payment.account_id)).dispute_fighter_enabled) await fightDisputeJob(trx, id);
  return id;
}

/** The network's own chargeback: the dispute, and the payment's open Resolution Center case ends disputed (the
 * buyer's bank took the complaint over). The platform's review opens its dispute itself and closes its case. */
async function chargeBack(trx: Knex, payment: PaymentRow, reason: string, alertId: string | null): Promise<string | null> {
  const id = await openDispute(trx, payment, reason, alertId);
  if (id) await chargebackFollowUps().chargedBack(trx, payment.id, id);
  return id;
}

async function raiseAlert(trx: Knex, payment: PaymentRow, type: 'early_fraud_warning' | 'dispute_alert'): Promise<void> {
  const billed = type === 'dispute_alert';
  const fee = billed ? alertFee(payment.currency) : 0;
  const id = newId('dspa_');
  await trx('dispute_alerts').insert({
    id, account_id: payment.account_id, payment_id: payment.id, type, outcome: 'pending', currency: payment.currency,
    amount: Number(payment.total), fee, fee_charged: billed, reported_at: nowMs(trx),
    actionable_until: after(DELAYS.alertWindow),
  });
  if (billed) await postAlertFee(trx, { id, account_id: payment.account_id, currency: payment.currency, fee });
  await recordEvent(trx, 'dispute_alert.created', payment.account_id, await readView(trx, resources.DisputeAlert, id));
  const row = await trx('dispute_alerts').where({ id }).first('actionable_until');
  await addJob(trx, ALERT_WINDOW_END, { alert_id: id }, { jobKey: `${ALERT_WINDOW_END}:${id}`, runAt: new Date(row.actionable_until) });
}

/** Rapid dispute resolution: the network refunds the buyer at once (a refund of what remains, settled by the refund
 * job like any other) instead of opening a dispute; the alert is billed and never actionable. */
async function resolveRapidly(trx: Knex, payment: PaymentRow): Promise<void> {
  const fee = alertFee(payment.currency);
  const id = newId('dspa_');
  await trx('dispute_alerts').insert({
    id, account_id: payment.account_id, payment_id: payment.id, type: 'rapid_dispute_resolution', outcome: 'refunded',
    currency: payment.currency, amount: Number(payment.total), fee, fee_charged: true, reported_at: nowMs(trx), actionable_until: null,
  });
  await postAlertFee(trx, { id, account_id: payment.account_id, currency: payment.currency, fee });
  const remaining = await refundableRemaining(trx, payment);
  if (remaining > 0) await createPendingRefund(trx, payment, remaining);
  await recordEvent(trx, 'dispute_alert.created', payment.account_id, await readView(trx, resources.DisputeAlert, id));
}

/** The end of an alert's window: a payment not refunded by then is charged back. */
export async function endAlertWindow(db: Knex, alertId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const locked = await lockWithPayment(trx, 'dispute_alerts', alertId);
    if (!locked) return;
    const { row: alert, payment } = locked;
    if (alert.outcome !== 'pending' || new Date(alert.actionable_until).getTime() > clockNow().getTime()) return;
    const disputeId = await chargeBack(trx, payment, alert.type === 'early_fraud_warning' ? 'fraudulent' : 'general', alert.id);
    await trx('dispute_alerts').where({ id: alertId })
      .update({ outcome: disputeId ? 'disputed' : 'expired', dispute_id: disputeId, updated_at: nowMs(trx) });
    await recordEvent(trx, 'dispute_alert.updated', alert.account_id, await readView(trx, resources.DisputeAlert, alertId));
  });
}

/** response_due_at passed without evidence: the dispute closes without a ruling and the buyer keeps the money. */
export async function closeUnanswered(db: Knex, disputeId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const d = (await lockWithPayment(trx, 'disputes', disputeId))?.row;
    if (!d || d.status !== 'needs_response' || new Date(d.response_due_at).getTime() > clockNow().getTime()) return;
    await trx('disputes').where({ id: disputeId })
      .update({ status: transition('Dispute', d.status, 'close'), resolved_at: nowMs(trx), updated_at: nowMs(trx) });
    // The buyer keeps the money: the partner's commission on it is taken back (handlers/partners/reverse.ts).
    const reversal = await reversePartnerEarning(trx, d.payment_id, d.id, 'chargeback');
    await recountVolume(trx, d.payment_id); // and the seller's lifetime volume loses it (accounts/lifetime-volume.ts)
    if (reversal) await postEntries(trx, [reversal]);
    await recordEvent(trx, 'dispute.closed', d.account_id, await readView(trx, resources.Dispute, disputeId));
  });
}

/** What the scheme is shown of a dispute under review, to rule on it. */
export interface DisputeUnderReview {
  evidence: Partial<DisputeEvidence>;
  evidence_submitted_by: 'account' | 'dispute_fighter';
  /** the membership the disputed payment granted, if any (the platform's record of delivery) */
  membership_id: string | null;
}

/** The scheme's ruling on submitted evidence, applied: won, the amount comes back; lost, the buyer keeps it. The
 * dispute is locked and still under review when `ruling` is asked (true: won). */
export async function takeRuling(db: Knex, disputeId: string, ruling: (dispute: DisputeUnderReview) => boolean): Promise<void> {
  await db.transaction(async (trx) => {
    const locked = await lockWithPayment(trx, 'disputes', disputeId);
    if (!locked || locked.row.status !== 'under_review') return;
    const { row: d, payment } = locked;
    const won = ruling({ evidence: d.evidence, evidence_submitted_by: d.evidence_submitted_by, membership_id: payment?.membership_id ?? null });
    const status = transition('Dispute', d.status, won ? 'win' : 'lose');
    await trx('disputes').where({ id: disputeId }).update({ status, resolved_at: nowMs(trx), updated_at: nowMs(trx) });
    // Won, the amount comes back; lost, the buyer keeps it and the partner's commission on it is taken back.
    const entry = won ? await disputeReturnedEntry(trx, d, 'won', payment) : await reversePartnerEarning(trx, d.payment_id, d.id, 'chargeback');
    if (!won) await recountVolume(trx, d.payment_id); // the seller's lifetime volume loses it (accounts/lifetime-volume.ts)
    if (entry) await postEntries(trx, [entry]);
    await recordEvent(trx, won ? 'dispute.won' : 'dispute.lost', d.account_id, await readView(trx, resources.Dispute, disputeId));
  });
}

/** The dispute fighter: with dispute_fighter_enabled, evidence assembled from the payment, the buyer and the
 * membership fills what the seller left empty, and is filed. */
export async function fightDispute(db: Knex, disputeId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const locked = await lockWithPayment(trx, 'disputes', disputeId);
    if (!locked) return;
    const { row: d, payment } = locked;
    if (d.status !== 'needs_response' || d.evidence_submitted_at || new Date(d.response_due_at).getTime() <= clockNow().getTime()) return;
    if (!(await loadPreferences(trx, d.account_id)).dispute_fighter_enabled) return;
    const buyer = d.user_id ? await trx('users').where({ id: d.user_id }).first('name', 'email', 'username') : null;
    const product = d.product_id ? await trx('products').where({ id: d.product_id }).first('title') : null;
    const membership = payment.membership_id ? await trx('memberships').where({ id: payment.membership_id }).first('id', 'status', 'created_at') : null;
    const assembled: Record<string, string | null> = {
      customer_name: buyer ? (buyer.name ?? buyer.username) : null,
      customer_email_address: buyer?.email ?? null,
      product_description: product ? `${product.title} (payment ${payment.id})` : `Payment ${payment.id}`,
      service_date: new Date(payment.settlement_time_at ?? payment.created_at).toISOString().slice(0, 10),
      access_activity_log: membership
        ? `Membership ${membership.id} granted access from ${new Date(membership.created_at).toISOString()}; status ${membership.status}.`
        : null,
      notes: `Assembled by the dispute fighter from payment ${payment.id}${membership ? ` and membership ${membership.id}` : ''}.`,
    };
    const evidence = { ...emptyEvidence(), ...d.evidence };
    for (const [k, v] of Object.entries(assembled)) if ((evidence as Record<string, unknown>)[k] == null) (evidence as Record<string, unknown>)[k] = v;
    await submitEvidence(trx, d, 'dispute_fighter', evidence);
  });
}
