// What a successful payment gives the buyer, in the payment's transaction: they become (again) a joined member of
// the account, and a variant purchase creates their membership or renews the one they hold for that variant. A
// renewal the membership lifecycle charged starts its membership's next period (renewal-outcome.ts). Payments
// calls it through its outcomes port (payment-outcomes.ts).
import type { Knex } from 'knex';
import { transition } from '../../generated/state-machine.js';
import { createMembership } from './membership-service.js';
import { ensureMember } from '../members/index.js';
import type { MembershipRow } from '../../generated/rows.js';
import type { PaymentRow } from '../shared/payment-row.js';
import { nowMs } from '../shared/now.js';
import { clockNow } from '../../runtime/clock.js';
import { isRenewal, renewalPaid } from './renewal-outcome.js';
import { dueAtOf } from './due-at.js';

const DAY_MS = 86_400_000;
const LIVE = ['trialing', 'active', 'past_due'];

export interface MembershipFulfilment {
  memberId: string | null;
  membershipId: string | null;
  /** a trialing or overdue membership this renewal activated (a new membership records its own event) */
  activated: MembershipRow | null;
}

export async function fulfil(db: Knex, payment: PaymentRow): Promise<MembershipFulfilment> {
  if (!payment.user_id) return { memberId: payment.member_id, membershipId: null, activated: null };
  const stamp = nowMs(db);
  const member = await ensureMember(db, payment.account_id, payment.user_id);
  if (!payment.plan_id) return { memberId: member.id, membershipId: null, activated: null };
  if (isRenewal(payment)) {
    const paid = await renewalPaid(db, payment);
    return { memberId: member.id, membershipId: payment.membership_id, activated: paid.activated };
  }

  const plan = await db('plans').where({ id: payment.plan_id }).first();
  const existing: MembershipRow | undefined = await db('memberships')
    .where({ account_id: payment.account_id, user_id: payment.user_id, plan_id: payment.plan_id })
    .whereIn('status', LIVE).forUpdate().first();
  const now = clockNow().getTime();
  const days = (n: number | null) => (n ? new Date(now + n * DAY_MS) : null);
  // A period: billing_period for a renewal variant, expiration_days (null: forever) for a one_time grant.
  const periodDays: number | null = plan.plan_type === 'one_time' ? plan.expiration_days : plan.billing_period_days;

  if (existing) {
    // A purchase by a holder extends the current period from its end (or from now when it has lapsed).
    const from = Math.max(now, existing.current_period_end ? Date.parse(existing.current_period_end) : now);
    const end = periodDays && existing.current_period_end ? new Date(from + periodDays * DAY_MS) : existing.current_period_end;
    const status = existing.status === 'active' ? 'active' : transition('Membership', existing.status, 'activate');
    const [row] = await db('memberships').where({ id: existing.id })
      .update({ status, current_period_end: end, due_at: dueAtOf(status, end), updated_at: stamp }).returning('*');
    return { memberId: member.id, membershipId: row.id, activated: status !== existing.status ? row : null };
  }

  const trialing = (plan.trial_period_days ?? 0) > 0;
  const row = await createMembership(db, {
    accountId: payment.account_id,
    userId: payment.user_id,
    productId: plan.product_id,
    planId: plan.id,
    status: trialing ? 'trialing' : 'active',
    currentPeriodStart: new Date(now),
    currentPeriodEnd: trialing ? days(plan.trial_period_days) : days(periodDays),
  });
  return { memberId: member.id, membershipId: row.id, activated: null };
}
