// What a successful payment gives the buyer, in the payment's transaction: they become (again) a joined member of
// the account, and a variant purchase creates their membership or renews the one they hold for that variant.
import type { Knex } from 'knex';
import { transition } from '../../runtime/state-machine.js';
import { createMembership } from '../memberships/membership-service.js';
import { ensureMember } from '../members/member-service.js';
import type { Row } from '../../runtime/plain/stored-resource.js';
import type { PaymentRow } from './payment-view.js';
import { nowMs } from '../shared/now.js';

const DAY_MS = 86_400_000;
const LIVE = ['trialing', 'active', 'past_due'];

export interface Fulfilment {
  memberId: string | null;
  membershipId: string | null;
  /** a trialing or overdue membership this renewal activated (a new membership records its own event) */
  activated: Row | null;
}

export async function fulfil(db: Knex, payment: PaymentRow): Promise<Fulfilment> {
  if (!payment.user_id) return { memberId: payment.member_id, membershipId: null, activated: null };
  const stamp = nowMs(db);
  const member = await ensureMember(db, payment.account_id, payment.user_id);
  if (!payment.plan_id) return { memberId: member.id, membershipId: null, activated: null };

  const plan = await db('plans').where({ id: payment.plan_id }).first();
  const existing: Row | undefined = await db('memberships')
    .where({ account_id: payment.account_id, user_id: payment.user_id, plan_id: payment.plan_id })
    .whereIn('status', LIVE).forUpdate().first();
  const now = Date.now();
  const days = (n: number | null) => (n ? new Date(now + n * DAY_MS) : null);

  if (existing) {
    // A renewal extends the current period from its end (or from now when it has lapsed).
    const from = Math.max(now, existing.current_period_end ? Date.parse(existing.current_period_end) : now);
    const end = plan.billing_period_days ? new Date(from + plan.billing_period_days * DAY_MS) : existing.current_period_end;
    const status = existing.status === 'active' ? 'active' : transition('Membership', existing.status, 'activate');
    const [row] = await db('memberships').where({ id: existing.id })
      .update({ status, current_period_end: end, updated_at: stamp }).returning('*');
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
    currentPeriodEnd: trialing ? days(plan.trial_period_days) : days(plan.billing_period_days),
  });
  return { memberId: member.id, membershipId: row.id, activated: null };
}
