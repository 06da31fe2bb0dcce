// Users, accounts and credentials made through the same services the API and CLI use.
import type { Knex } from 'knex';
import { insertAccount, type NewAccount } from '../../handlers/accounts/account-service.js';
import { insertUser, issueUserToken } from '../../handlers/users/user-service.js';
import { issueApiKey, type NewApiKey } from '../../handlers/api_keys/api-key-service.js';
import { randomToken } from '../../runtime/ids.js';

export async function makeUser(db: Knex, name?: string) {
  const handle = (name ?? `user${randomToken(6)}`).toLowerCase();
  const user = await insertUser(db, { username: handle, email: `${handle}@example.com`, name: name ?? handle });
  const token = await issueUserToken(db, user.id);
  return { user, id: user.id as string, token: token.secret, tokenId: token.id };
}

export async function makeAccount(db: Knex, input: Partial<NewAccount> = {}) {
  return insertAccount(db, { title: input.title ?? `Shop ${randomToken(5)}`, ...input });
}

export async function makeKey(db: Knex, input: Partial<NewApiKey> & { accountId: string }) {
  const { row, secret } = await issueApiKey(db, { name: 'test key', ...input });
  return { id: row.id as string, secret, row };
}

/** An owner (user + token) with an account and an admin API key on it. */
export async function makeOwner(db: Knex, account: Partial<NewAccount> = {}) {
  const owner = await makeUser(db);
  const acct = await makeAccount(db, { ownerUserId: owner.id, ...account });
  const key = await makeKey(db, { accountId: acct.id, role: 'admin' });
  return { owner, account: acct, accountId: acct.id as string, key: key.secret, keyId: key.id, token: owner.token };
}
