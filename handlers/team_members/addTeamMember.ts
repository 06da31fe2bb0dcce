// Written by hand, not declared plain: the user is named by user_id or username, and a duplicate's 409 names whichever
// was sent with the user's username, which a plain create's unique error cannot say.
import type { Handler } from '../../generated/handler.js';
import { nowMs } from '../shared/now.js';
import { conflict, invalid, notFound } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { permissionsFor, requireGrantable } from './role-rules.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';

/** POST /team_members: invites a user; they get a notification and no access until they accept. */
export const addTeamMember: Handler<'addTeamMember'> = async ({ body }, ctx) => {
  const { account_id, user_id, username, role } = body;
  if ((user_id === undefined) === (username === undefined)) {
    throw invalid('Name the user with exactly one of user_id or username', user_id === undefined ? 'user_id' : 'username');
  }
  const userParam = user_id !== undefined ? 'user_id' : 'username';
  const permissions = permissionsFor(role, body.permissions);
  await requireGrantable(ctx.access, account_id, role, permissions);

  const user = await ctx.db('users').where(user_id !== undefined ? { id: user_id } : { username }).first('id', 'username');
  if (!user) throw notFound('user', (user_id ?? username)!, userParam);

  // The (account, user) unique index decides, so concurrent invitations cannot both succeed.
  const [inserted] = await ctx.db('team_members')
    .insert({
      id: newId('tmem_'), account_id, user_id: user.id, role, permissions, status: 'invited',
      invited_by_user_id: ctx.principal.userId, invited_at: nowMs(ctx.db),
    })
    .onConflict(['account_id', 'user_id']).ignore()
    .returning('id');
  if (!inserted) throw conflict(`${user.username} is already on this account's team`, userParam);

  const member = await readView(ctx.db, resources.TeamMember, inserted.id);
  // The invitee's notification comes with the event (migrations/311_notifications.ts: the events trigger).
  await ctx.emit('team_member.invited', account_id, member);
  return member;
};
