// What `npm run cli` does, on the same services the API and the demo seed use; each command is one transaction.
import type { Knex } from 'knex';
import { insertAccount } from '../handlers/accounts/account-service.js';
import { insertUser, issueUserToken } from '../handlers/users/user-service.js';
import { issueApiKey } from '../handlers/api_keys/api-key-service.js';
import { specData } from '../generated/spec-data.js';

/** A mistake in the command line, or a reference to something that does not exist. */
export class CliError extends Error {}

// An API key inherits a system role; ownership belongs to a person, so no key is an owner.
export const KEY_ROLES = Object.keys(specData.roles).filter((r) => r !== 'owner');

export function checkRole(role: string): string {
  if (!KEY_ROLES.includes(role)) throw new CliError(`--role must be one of ${KEY_ROLES.join(', ')}, not '${role}'`);
  return role;
}

async function findUser(db: Knex, ref: string, option: string) {
  const user = await db('users').where(ref.startsWith('user_') ? { id: ref } : { username: ref }).first('id', 'username');
  if (!user) throw new CliError(`No user with ${ref.startsWith('user_') ? 'id' : 'username'} '${ref}' (--${option})`);
  return user as { id: string; username: string };
}

export interface AccountInput {
  title: string;
  email?: string;
  country?: string;
  owner?: string;
  role?: string;
}

export function createAccount(db: Knex, input: AccountInput) {
  const role = checkRole(input.role ?? 'admin');
  return db.transaction(async (trx) => {
    const owner = input.owner ? await findUser(trx, input.owner, 'owner') : null;
    const account = await insertAccount(trx, { title: input.title, email: input.email, country: input.country, ownerUserId: owner?.id });
    const key = await issueApiKey(trx, { accountId: account.id, name: 'CLI key', role, createdByUserId: owner?.id });
    return {
      account_id: account.id as string,
      title: account.title as string,
      client_id: account.client_id as string,
      api_key: key.secret,
      api_key_id: key.row.id as string,
      role,
      owner_user_id: owner?.id ?? null,
      owner_username: owner?.username ?? null,
    };
  });
}

export function createUser(db: Knex, input: { username: string; email: string; name?: string }) {
  return db.transaction(async (trx) => {
    const user = await insertUser(trx, input);
    const token = await issueUserToken(trx, user.id, 'CLI token');
    return { user_id: user.id as string, username: user.username as string, user_token: token.secret, user_token_id: token.id };
  });
}

export function createToken(db: Knex, input: { user: string }) {
  return db.transaction(async (trx) => {
    const user = await findUser(trx, input.user, 'user');
    const token = await issueUserToken(trx, user.id, 'CLI token');
    return { user_id: user.id, username: user.username, user_token: token.secret, user_token_id: token.id };
  });
}

export function createKey(db: Knex, input: { account: string; role?: string }) {
  const role = checkRole(input.role ?? 'admin');
  return db.transaction(async (trx) => {
    const account = await trx('accounts').where({ id: input.account }).first('id', 'title');
    if (!account) throw new CliError(`No account with id '${input.account}'`);
    const key = await issueApiKey(trx, { accountId: account.id, name: 'CLI key', role });
    return { account_id: account.id as string, title: account.title as string, api_key: key.secret, api_key_id: key.row.id as string, role };
  });
}
