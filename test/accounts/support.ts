// Accounts-area test helpers: team memberships, accounts with set timestamps and volumes, keys with given scopes.
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';
import { makeAccount, makeKey } from '../helpers/fixtures.js';

export async function joinTeam(db: Knex, accountId: string, userId: string, role: string,
  options: { permissions?: string[]; status?: 'active' | 'invited' } = {}) {
  await db('team_members').insert({
    id: newId('tmem_'), account_id: accountId, user_id: userId, role, permissions: options.permissions ?? [],
    status: options.status ?? 'active', accepted_at: options.status === 'invited' ? null : db.fn.now(),
  });
}

/** A key on the account holding exactly these scopes. */
export async function keyWith(db: Knex, accountId: string, actions: string[]) {
  return (await makeKey(db, { accountId, statements: [{ effect: 'allow', actions }] })).secret;
}

/** An account with the given creation time, lifetime volume (cents) and status. */
export async function accountAt(db: Knex, input: {
  parentId?: string; title?: string; createdAt?: string; volume?: number; status?: string;
}) {
  const row = await makeAccount(db, { parentId: input.parentId ?? null, ...(input.title ? { title: input.title } : {}) });
  const patch: Record<string, unknown> = {};
  if (input.createdAt) patch.created_at = input.createdAt;
  if (input.volume !== undefined) patch.lifetime_volume_usd = input.volume;
  if (input.status) patch.status = input.status;
  if (Object.keys(patch).length) await db('accounts').where({ id: row.id }).update(patch);
  return row.id as string;
}

/** ISO timestamps one minute apart, starting at a fixed day. */
export const minute = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString();

export const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((a) => a.id);
