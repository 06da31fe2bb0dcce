// Membership rows -> the Membership resource.
import type { Membership } from '../../generated/types.js';

export type MembershipRow = Record<string, any> & { id: string; account_id: string; user_id: string; status: string };

export function membershipView(row: MembershipRow): Membership {
  return {
    id: row.id,
    status: row.status as Membership['status'],
    current_period_start: row.current_period_start,
    current_period_end: row.current_period_end,
    cancel_at_period_end: row.cancel_at_period_end,
    canceled_at: row.canceled_at,
    paused_at: row.paused_at,
    metadata: row.metadata,
    license_key: row.license_key,
    plan_id: row.plan_id,
    product_id: row.product_id,
    member_id: row.member_id,
    user_id: row.user_id,
    account_id: row.account_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
