// Creating and ending memberships: the payments lifecycle (handlers/payments/fulfilment.ts) creates them on a
// successful payment through createMembership; ending one goes through endMembership so the member leaves with
// their last one.
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';
import { recordEvent } from '../../generated/events.js';
import { ensureMember, leaveIfNoAccessLeft } from '../members/index.js';
import { newLicenseKey, storedLicenseKey } from './license-key.js';
import { membershipEventData } from './membership-events.js';
import { resources } from '../../generated/resources.js';
import type { MembershipRow } from '../../generated/rows.js';
import { nowMs } from '../shared/now.js';
import { dueAtOf } from './due-at.js';
import type { EventType } from '../../generated/spec-data.js';

export interface NewMembership {
  accountId: string;
  userId: string;
  productId: string;
  planId: string;
  /** trialing for a plan with a trial, else active */
  status: 'trialing' | 'active';
  currentPeriodStart?: Date | null;
  /** null for a grant that does not expire */
  currentPeriodEnd?: Date | null;
  metadata?: Record<string, unknown>;
}

/** Inserts the membership (the buyer joins as a member; a license key when the product includes licensing) and
 * records membership.activated in the same transaction. */
export async function createMembership(db: Knex, input: NewMembership): Promise<MembershipRow> {
  const member = await ensureMember(db, input.accountId, input.userId);
  const product = await db('products').where({ id: input.productId }).first('includes_license');
  const [row] = await db('memberships').insert({
    id: newId('mem_'),
    account_id: input.accountId,
    member_id: member.id,
    user_id: input.userId,
    product_id: input.productId,
    plan_id: input.planId,
    status: input.status,
    current_period_start: input.currentPeriodStart ?? nowMs(db),
    current_period_end: input.currentPeriodEnd ?? null,
    due_at: dueAtOf(input.status, input.currentPeriodEnd ?? null),
    ...storedLicenseKey(product?.includes_license ? newLicenseKey() : null),
    metadata: JSON.stringify(input.metadata ?? {}),
  }).returning('*');
  await recordEvent(db, 'membership.activated', row.account_id, membershipEventData(resources.Membership.view(row)));
  return row;
}

/** Writes a membership's new (ended) status and lets its member leave if nothing else grants access. An ended
 * membership is never due again. */
export async function endMembership(db: Knex, row: MembershipRow, status: string): Promise<MembershipRow> {
  const now = nowMs(db);
  const [updated] = await db('memberships').where({ id: row.id })
    .update({ status, canceled_at: status === 'canceled' ? now : row.canceled_at, due_at: null, updated_at: now }).returning('*');
  await leaveIfNoAccessLeft(db, row.member_id);
  return updated;
}

/** Records a membership event outside a request (the lifecycle's jobs), in the caller's transaction. */
export const recordMembershipEvent = (db: Knex, type: EventType, row: MembershipRow) =>
  recordEvent(db, type, row.account_id, membershipEventData(resources.Membership.view(row)));
