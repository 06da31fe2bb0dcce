// Member rows (with their user and the derived access level) -> the Member resource.
import type { Knex } from 'knex';
import type { Member } from '../../generated/types.js';
import { accessLevelSql } from './access-level.js';

export type MemberRow = Record<string, any> & { id: string };

/** Members with the user summary and access level every view needs; filter on `m.` and `u.` columns. */
export const memberRows = (db: Knex) =>
  db('members as m').join('users as u', 'u.id', 'm.user_id')
    .select('m.*', 'u.username', 'u.name as user_name', db.raw(`${accessLevelSql('m.account_id', 'm.user_id')} as derived_access_level`));

export function memberView(row: MemberRow): Member {
  return {
    id: row.id,
    account_id: row.account_id,
    user: { id: row.user_id, username: row.username, name: row.user_name },
    status: row.status,
    access_level: row.derived_access_level,
    joined_at: row.joined_at,
    last_opened_at: row.last_opened_at,
    created_at: row.created_at,
  };
}
