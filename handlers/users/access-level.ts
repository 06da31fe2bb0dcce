// A user's access level on an account. Team membership (active only: an invitation grants nothing until accepted)
// of the account or of its parent makes an admin. Memberships, which make customers, are not stored yet; when
// they are, an active membership to one of the account's products answers `customer` here.
import type { Knex } from 'knex';
import type { UserAccess } from '../../generated/types.js';

export async function accessLevel(db: Knex, userId: string, accountId: string): Promise<UserAccess['access_level']> {
  const teamMember = await db('team_members as tm')
    .join('accounts as a', (j) => j.on('tm.account_id', '=', 'a.id').orOn('tm.account_id', '=', 'a.parent_id'))
    .where({ 'a.id': accountId, 'tm.user_id': userId, 'tm.status': 'active' })
    .first('tm.id');
  return teamMember ? 'admin' : 'no_access';
}
