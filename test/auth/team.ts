// Team membership for authorization tests: a user holding a role (or custom permissions) on an account, reached as
// the product reaches it: the account's owner invites (POST /team_members) and the user accepts (POST …/accept).
import type { Knex } from 'knex';
import * as assert from 'uvu/assert';
import { issueUserToken } from '../../handlers/users/user-service.js';
import { headVersion } from '../../runtime/versions.js';
import { makeUser } from '../helpers/fixtures.js';
import type { TestApp } from '../helpers/harness.js';

type User = Awaited<ReturnType<typeof makeUser>>;

/** Invites `user` (a new user by default) with the owner's token and accepts with theirs; returns the user and member id. */
export async function joinTeam(app: TestApp, ownerToken: string, accountId: string, role: string, permissions: string[] = [],
  user?: Pick<User, 'id' | 'token'>, status: 'active' | 'invited' = 'active') {
  const member = user ?? await makeUser(app.db);
  const invited = await app.request('POST', '/team_members', {
    token: ownerToken, version: headVersion(),
    body: { account_id: accountId, user_id: member.id, role, ...(role === 'custom' ? { permissions } : {}) },
  });
  assert.is(invited.status, 201, JSON.stringify(invited.body));
  if (status === 'active') {
    const accepted = await app.request('POST', `/team_members/${invited.body.id}/accept`, { token: member.token, version: headVersion() });
    assert.is(accepted.status, 200, JSON.stringify(accepted.body));
  }
  return { ...member, memberId: invited.body.id as string };
}

/** A token of the account's owner, issued as `npm run cli -- token` does, for a test that holds only the account id. */
export async function ownerToken(db: Knex, accountId: string): Promise<string> {
  const owner = await db('team_members').where({ account_id: accountId, role: 'owner' }).first('user_id');
  assert.ok(owner, `account ${accountId} has an owner`);
  return (await issueUserToken(db, owner.user_id)).secret;
}

/** A team member as the team_members tests want it: `{ id, user }`, invited by `inviter` (the owner by default). */
export async function teamMember(app: TestApp, accountId: string, role: string,
  options: { permissions?: string[]; status?: 'active' | 'invited'; inviter?: string } = {}) {
  const inviter = options.inviter ?? await ownerToken(app.db, accountId);
  const joined = await joinTeam(app, inviter, accountId, role, options.permissions ?? [], undefined, options.status ?? 'active');
  const { memberId, ...user } = joined;
  return { id: memberId, user };
}

export async function addMember(app: TestApp, accountId: string, role: string, permissions: string[] = []) {
  return joinTeam(app, await ownerToken(app.db, accountId), accountId, role, permissions);
}
