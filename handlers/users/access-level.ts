// A user's access level on a resource of an account. Team membership (active only: an invitation grants nothing
// until accepted) of the account or of its parent makes an admin; a membership granting access to one of the
// resource's customer products (any of the account's products for the account itself), or a public resource,
// makes a customer.
import type { Knex } from 'knex';
import type { UserAccess } from '../../generated/types.js';
import { holdsAccessGrantingMembership } from '../members/index.js';
import type { Customers } from '../permissions/index.js';

export async function accessLevel(db: Knex, userId: string, accountId: string, customers: Customers = {}): Promise<UserAccess['access_level']> {
  const teamMember = await db('team_members as tm')
    .join('accounts as a', (j) => j.on('tm.account_id', '=', 'a.id').orOn('tm.account_id', '=', 'a.parent_id'))
    .where({ 'a.id': accountId, 'tm.user_id': userId, 'tm.status': 'active' })
    .first('tm.id');
  if (teamMember) return 'admin';
  if (customers.isPublic) return 'customer';
  return (await holdsAccessGrantingMembership(db, userId, accountId, customers.productIds)) ? 'customer' : 'no_access';
}
