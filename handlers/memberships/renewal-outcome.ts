// What a renewal's outcome does to its membership, in the payment's transaction: success starts the next period
// (fulfilment.ts calls renewalPaid), failure moves it to past_due and schedules the next retry (payments' collection
// calls renewalFailed through payment-outcomes.ts), or expires it when the schedule is exhausted (dunning.ts).
import type { Knex } from 'knex';
import { transition } from '../../generated/state-machine.js';
import type { MembershipRow } from '../../generated/rows.js';
import type { PaymentRow } from '../shared/payment-row.js';
import { nowMs } from '../shared/now.js';
import { clockNow } from '../../runtime/clock.js';
import { endMembership, recordMembershipEvent } from './membership-service.js';
import { nextRetryAt } from './dunning.js';

const DAY_MS = 86_400_000;
const RENEWABLE = ['trialing', 'active', 'past_due'];

export type RenewalPayment = PaymentRow & { membership_id: string; renewal_period_start: string };

/** A payment the lifecycle created for a period of a membership (renewal-charge.ts). */
export const isRenewal = (payment: PaymentRow): payment is RenewalPayment =>
  payment.billing_reason === 'subscription_cycle' && !!payment.membership_id && !!payment.renewal_period_start;

const lockMembership = (db: Knex, id: string): Promise<MembershipRow | undefined> => db('memberships').where({ id }).forUpdate().first();

export interface RenewalPaid {
  membership: MembershipRow | null;
  /** the membership, when the payment moved it from trialing or past_due to active */
  activated: MembershipRow | null;
}

/** The next period starts where the paid one ended (never at the time of the charge), billing_period days long; a
 * trialing or past_due membership becomes active. An ended or paused membership is left as it is. */
export async function renewalPaid(db: Knex, payment: RenewalPayment): Promise<RenewalPaid> {
  const row = await lockMembership(db, payment.membership_id);
  if (!row || !RENEWABLE.includes(row.status)) return { membership: null, activated: null };
  // Only the membership's latest renewal moves its period: an older one paid late (retried by hand after a resume
  // charged a new period) pays for what it was for, and the current period is not moved again.
  const latest = await db('payments').where({ membership_id: row.id, billing_reason: 'subscription_cycle' }).whereNotNull('renewal_period_start')
    .orderBy('renewal_period_start', 'desc').first('id');
  if (latest?.id !== payment.id) return { membership: row, activated: null };
  const plan = await db('plans').where({ id: row.plan_id }).first('billing_period_days');
  const updated = await startNextPeriod(db, row, Number(plan.billing_period_days));
  await recordMembershipEvent(db, 'membership.renewed', updated);
  return { membership: updated, activated: updated.status !== row.status ? updated : null };
}

/** Moves the period on by `days` from its end, active, due at the new end. A period that would already be over (a
 * membership whose renewal was never charged while it lapsed, e.g. one sold before renewals existed) starts now
 * instead: one charge brings it up to date, never one per missed period. */
export async function startNextPeriod(db: Knex, row: MembershipRow, days: number): Promise<MembershipRow> {
  const now = clockNow().getTime();
  const from = new Date(row.current_period_end ?? now).getTime();
  const start = from + days * DAY_MS <= now ? now : from;
  const end = new Date(start + days * DAY_MS);
  const status = row.status === 'active' ? 'active' : transition('Membership', row.status, 'activate');
  const [updated] = await db('memberships').where({ id: row.id }).update({
    status, current_period_start: new Date(start), current_period_end: end, due_at: end, updated_at: nowMs(db),
  }).returning('*');
  return updated;
}

/** A declined renewal payment: past_due with the payment's next_payment_attempt_at, or expired after the last retry. */
export async function renewalFailed(db: Knex, payment: RenewalPayment): Promise<void> {
  const row = await lockMembership(db, payment.membership_id);
  if (!row || !RENEWABLE.includes(row.status)) return;
  const next = await failAttempt(db, row, payment.renewal_period_start);
  if (next) await db('payments').where({ id: payment.id }).update({ next_payment_attempt_at: next });
}

/**
 * An attempt at renewing `row` (locked) failed, for the period that fell due at `periodStart`: the membership is
 * past_due until the next retry of the schedule (returned), or expires when none is left (null).
 */
export async function failAttempt(db: Knex, row: MembershipRow, periodStart: string): Promise<Date | null> {
  const [{ now }] = (await db.raw("select date_trunc('milliseconds', now()) as now")).rows;
  const next = nextRetryAt(periodStart, now);
  if (!next) {
    const expired = await endMembership(db, row, transition('Membership', row.status, 'expire'));
    await recordMembershipEvent(db, 'membership.expired', expired);
    return null;
  }
  const status = row.status === 'past_due' ? row.status : transition('Membership', row.status, 'mark_past_due');
  const [updated] = await db('memberships').where({ id: row.id })
    .update({ status, due_at: next, updated_at: nowMs(db) }).returning('*');
  if (status !== row.status) await recordMembershipEvent(db, 'membership.past_due', updated);
  return next;
}
