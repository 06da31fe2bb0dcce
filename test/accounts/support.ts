// Accounts-area test helpers: team memberships reached through the product, accounts with set timestamps, lifetime
// volumes reached by real payments, keys with given scopes.
import type { Knex } from 'knex';
import { makeAccount, makeKey, makeUser } from '../helpers/fixtures.js';
import type { TestApp } from '../helpers/harness.js';
import { joinTeam as inviteAndAccept, ownerToken } from '../auth/team.js';
import { pay } from '../payments/payment-fixtures.js';

type User = Awaited<ReturnType<typeof makeUser>>;

/** `user` on the account's team with `role`, the product's way: the account's owner invites them (POST /team_members)
 * and, unless the membership is to stay invited, they accept with their own token. Returns the team member id. */
export async function joinTeam(app: TestApp, accountId: string, user: Pick<User, 'id' | 'token'>, role: string,
  options: { permissions?: string[]; status?: 'active' | 'invited' } = {}): Promise<string> {
  const owner = await ownerToken(app.db, accountId);
  const joined = await inviteAndAccept(app, owner, accountId, role, options.permissions ?? [], user, options.status ?? 'active');
  return joined.memberId;
}

/** A key on the account holding exactly these scopes. */
export async function keyWith(db: Knex, accountId: string, actions: string[]) {
  return (await makeKey(db, { accountId, statements: [{ effect: 'allow', actions }] })).secret;
}

/** An account with the given status, owned by `owner` (a new user by default), as POST /accounts with a user token
 * makes one: insertAccount with the user as its owner team member. Accounts made one after another are created in
 * that order: the product stamps an account with its clock's now, to the millisecond, so this waits past the
 * millisecond before returning and the next account's creation time is strictly later. */
export async function accountAt(db: Knex, input: { parentId?: string; title?: string; status?: 'suspended'; owner?: { id: string } }) {
  const owner = input.owner ?? await makeUser(db);
  const row = await makeAccount(db, { parentId: input.parentId ?? null, ownerUserId: owner.id, ...(input.title ? { title: input.title } : {}) });
  // sql-state-write: the status filter is tested on a suspended account, and no operation (API, CLI, sandbox) suspends one
  if (input.status) await db('accounts').where({ id: row.id }).update({ status: input.status });
  await new Promise((resolve) => setTimeout(resolve, 3));
  return row.id as string;
}

/** `cents` of lifetime volume for the account, the product's way: one USD payment to it, collected (settled). */
export async function sell(app: TestApp, accountId: string, cents: number): Promise<string> {
  const key = (await makeKey(app.db, { accountId, role: 'admin' })).secret;
  const { client_id } = await app.db('accounts').where({ id: accountId }).first('client_id');
  return (await pay(app, { key, accountId, clientId: client_id }, { amount: cents, currency: 'usd' })).id;
}

/** An account (accountAt) with `volume` cents of lifetime volume reached by a settled payment. */
export async function accountWithVolume(app: TestApp, input: Parameters<typeof accountAt>[1] & { volume: number }) {
  const { volume, ...rest } = input;
  const id = await accountAt(app.db, rest);
  await sell(app, id, volume);
  return id;
}

export const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((a) => a.id);
