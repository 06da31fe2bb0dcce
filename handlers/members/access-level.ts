// A member's access level, derived on every read so it is never stale: admin for an active team member of the
// account (or of its parent, which acts on its connected accounts), customer for a holder of a membership that
// grants access, else no_access. One definition, used by members and by GET /users/{id}/access/{resource_id}.
import type { Knex } from 'knex';

/** Membership statuses that grant access: a past_due membership keeps access while payment is retried. */
export const ACCESS_GRANTING_STATUSES = ['trialing', 'active', 'past_due'] as const;

const STATUS_LIST = ACCESS_GRANTING_STATUSES.map((s) => `'${s}'`).join(', ');

/** SQL for the access level of the user in `userColumn` on the account in `accountColumn` (trusted identifiers). */
export function accessLevelSql(accountColumn: string, userColumn: string): string {
  return `(case
    when exists (select 1 from team_members tm join accounts ta on tm.account_id = ta.id or tm.account_id = ta.parent_id
      where ta.id = ${accountColumn} and tm.user_id = ${userColumn} and tm.status = 'active') then 'admin'
    when exists (select 1 from memberships ms where ms.account_id = ${accountColumn} and ms.user_id = ${userColumn}
      and ms.status in (${STATUS_LIST})) then 'customer'
    else 'no_access' end)`;
}

/** Whether the user holds a membership granting access to the account's products, or to one product. */
export async function holdsAccessGrantingMembership(db: Knex, userId: string, accountId: string, productId?: string): Promise<boolean> {
  const q = db('memberships').where({ account_id: accountId, user_id: userId }).whereIn('status', [...ACCESS_GRANTING_STATUSES]);
  if (productId) q.where({ product_id: productId });
  return !!(await q.first('id'));
}
