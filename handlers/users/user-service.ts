// Creating users and issuing their tokens (the seed does not show how tokens are issued; the CLI does it).
import type { Knex } from 'knex';
import { newId } from '../../runtime/ids.js';
import { newSecret } from '../../runtime/credentials.js';
import { conflict } from '../../runtime/errors.js';

export async function insertUser(db: Knex, input: { username: string; email: string; name?: string | null }) {
  const clash = await db('users').where('username', input.username).orWhere('email', input.email).first('username', 'email');
  if (clash) {
    const field = clash.username === input.username ? 'username' : 'email';
    throw conflict(`A user with this ${field} already exists`, field);
  }
  const [row] = await db('users')
    .insert({ id: newId('user_'), username: input.username, email: input.email, name: input.name ?? null })
    .returning('*');
  return row;
}

export async function issueUserToken(db: Knex, userId: string, name: string | null = null, expiresAt: string | null = null) {
  const { secret, hash } = newSecret('utok_');
  const [row] = await db('user_tokens')
    .insert({ id: newId('utk_'), user_id: userId, secret_hash: hash, name, expires_at: expiresAt })
    .returning('*');
  return { id: row.id as string, secret };
}
