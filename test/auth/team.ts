// Team membership for authorization tests: a user holding a role (or custom permissions) on an account.
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';
import { makeUser } from '../helpers/fixtures.js';

export async function addMember(db: Knex, accountId: string, role: string, permissions: string[] = []) {
  const member = await makeUser(db);
  await db('team_members').insert({
    id: newId('tmem_'), account_id: accountId, user_id: member.id, role, permissions, status: 'active', accepted_at: db.fn.now(),
  });
  return member;
}
