// Which memberships grant access. A member's access level is derived from them on every read, so it is never stale
// (admin for an active team member of the account or its parent, customer for a holder of a membership that grants
// access, else no_access): in SQL by spec/areas/members.yaml (Member's table), here for GET /users/{id}/access.
import type { Knex } from 'knex';

/** Membership statuses that grant access: a past_due membership keeps access while payment is retried. */
export const ACCESS_GRANTING_STATUSES = ['trialing', 'active', 'past_due'] as const;

/** Whether the user holds a membership granting access to the account's products, or to one of `productIds`. */
export async function holdsAccessGrantingMembership(db: Knex, userId: string, accountId: string, productIds?: readonly string[]): Promise<boolean> {
  if (productIds?.length === 0) return false;
  const q = db('memberships').where({ account_id: accountId, user_id: userId }).whereIn('status', [...ACCESS_GRANTING_STATUSES]);
  if (productIds) q.whereIn('product_id', [...productIds]);
  return !!(await q.first('id'));
}
