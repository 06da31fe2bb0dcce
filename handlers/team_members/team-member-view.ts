// Team member rows (joined with their user) -> the TeamMember resource.
import type { Knex } from 'knex';
import type { TeamMember } from '../../generated/types.js';

export type TeamMemberRow = Record<string, any> & { id: string };

/** Team members with the user summary every view needs; filter on `tm.` columns. */
export const teamMemberRows = (db: Knex) =>
  db('team_members as tm').join('users as u', 'u.id', 'tm.user_id').select('tm.*', 'u.username', 'u.name as user_name');

export function teamMemberView(row: TeamMemberRow): TeamMember {
  return {
    id: row.id,
    account_id: row.account_id,
    user: { id: row.user_id, username: row.username, name: row.user_name },
    role: row.role,
    permissions: row.permissions,
    status: row.status,
    invited_at: row.invited_at,
    accepted_at: row.accepted_at,
    created_at: row.created_at,
  };
}
