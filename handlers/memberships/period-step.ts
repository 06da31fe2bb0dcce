// membership_period_step: what a membership does when its due_at comes (memberships.due_at, due-at.ts). Under the
// membership's row lock, and only when due_at is still the instant the step was queued for and has come (by SQL
// now(): the clock's time on a sandbox clock), it does one of: cancel a scheduled cancellation, charge a renewal
// (renewal-charge.ts; a trial's first charge too), expire a one_time grant, complete a fixed-term plan, retry a
// failed renewal (dunning.ts) or expire it when retries are exhausted, or resume a pause at the resumes_at it named.
// Every branch moves due_at (later, or null while a charge is being collected), so a step run twice, or by two
// workers, does its work once.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { canTransition, transition } from '../../generated/state-machine.js';
import { effectsOn } from '../../generated/effects.js';
import type { MembershipRow, VariantRow } from '../../generated/rows.js';
import { nowMs } from '../shared/now.js';
import { retryCollection } from '../payments/index.js';
import type { PaymentRow } from '../shared/payment-row.js';
import { endMembership, recordMembershipEvent } from './membership-service.js';
import { chargeRenewal } from './renewal-charge.js';
import { resumeMembershipRow } from './resume.js';
import { paidPaymentsOf } from './renewal-card.js';
import { failAttempt, startNextPeriod } from './renewal-outcome.js';

export const MEMBERSHIP_PERIOD_STEP = 'membership_period_step';

const iso = (at: string | Date) => new Date(at).toISOString();
export const periodStepJobKey = (membershipId: string, dueAt: string | Date) => `${MEMBERSHIP_PERIOD_STEP}:${membershipId}:${iso(dueAt)}`;

const LOCK_DUE = `select m.*, m.due_at <= now() as has_come from memberships m where m.id = ? for update`;

/** Runs the step of `membershipId` due at `dueAt`; does nothing when the membership has moved on since. */
export async function membershipPeriodStep(db: Knex, membershipId: string, dueAt: string): Promise<void> {
  await db.transaction(async (trx) => {
    const [row] = (await trx.raw(LOCK_DUE, [membershipId])).rows as (MembershipRow & { has_come: boolean })[];
    if (!row || !row.due_at || iso(row.due_at) !== iso(dueAt) || !row.has_come) return;
    await step(trx, row);
  });
}

async function step(db: Knex, row: MembershipRow): Promise<void> {
  // A paused membership is due only at the resumes_at its pause named.
  if (row.status === 'paused') {
    await resumeMembershipRow(db, row);
    return;
  }
  if (row.cancel_at_period_end && canTransition('Membership', row.status, 'cancel')) {
    await end(db, row, 'cancel', 'membership.canceled');
    return;
  }
  const plan = await db('plans').where({ id: row.plan_id }).first();
  if (row.status === 'trialing' || row.status === 'active') {
    if (plan.plan_type === 'one_time') return end(db, row, 'expire', 'membership.expired');
    const required = plan.split_pay_required_payments;
    if (required && row.status === 'active' && (await paidPaymentsOf(db, row.id)) >= required) {
      return end(db, row, 'complete', 'membership.completed');
    }
    return renew(db, row, plan);
  }
  if (row.status === 'past_due') return retry(db, row);
  await notDue(db, row);
}

async function end(db: Knex, row: MembershipRow, action: 'cancel' | 'expire' | 'complete', event: 'membership.canceled' | 'membership.expired' | 'membership.completed') {
  const ended = await endMembership(db, row, transition('Membership', row.status, action));
  await recordMembershipEvent(db, event, ended);
}

/** A renewal (a trial's first charge included): renewal_price off-session; a free renewal just moves on. */
async function renew(db: Knex, row: MembershipRow, plan: VariantRow): Promise<void> {
  if (Number(plan.renewal_price) <= 0) {
    await recordMembershipEvent(db, 'membership.renewed', await startNextPeriod(db, row, Number(plan.billing_period_days)));
    return;
  }
  // Not due while the charge is collected: its outcome sets the next due_at (renewal-outcome.ts).
  await notDue(db, row);
  const payment = await chargeRenewal(db, row);
  // A membership falls due at its period's end (due-at.ts): one that is due has one.
  if (!payment) await failAttempt(db, row, row.current_period_end!);
}

/** A past_due membership's retry time: the failed renewal is collected again (on the buyer's card as it is now). */
async function retry(db: Knex, row: MembershipRow): Promise<void> {
  const payment: PaymentRow | undefined = await db('payments')
    .where({ membership_id: row.id, billing_reason: 'subscription_cycle' }).whereNotNull('renewal_period_start')
    .orderBy('renewal_period_start', 'desc').forUpdate().first();
  if (payment?.status === 'failed') {
    // Not due while the retry is collected: its outcome sets the next due_at (renewal-outcome.ts).
    await notDue(db, row);
    await retryCollection(effectsOn(db), payment);
    return;
  }
  if (payment && payment.status !== 'succeeded') return notDue(db, row); // being collected: its outcome decides
  // The renewal could not even be charged (no card on file): try again, on the card the buyer may have saved since.
  await notDue(db, row);
  if (!(await chargeRenewal(db, row))) await failAttempt(db, row, row.current_period_end!);
}

async function notDue(db: Knex, row: MembershipRow): Promise<void> {
  await db('memberships').where({ id: row.id }).update({ due_at: null, updated_at: nowMs(db) });
}

export function membershipPeriodStepTask(db: Knex): Task {
  return async (payload) => {
    const { membership_id: id, due_at: dueAt } = payload as { membership_id: string; due_at: string };
    await membershipPeriodStep(db, id, dueAt);
  };
}
