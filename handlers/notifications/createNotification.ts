// Written by hand, not declared plain: one row per team member who receives it, within the app's send limit.
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { spendSend } from './send-limit.js';

const APP_TOPIC = 'ntop_appmessage';

/**
 * POST /notifications: an app (API key; the runtime checked notification:send on company_id) notifies the account's
 * active team members, or those named in user_ids, skipping users who turned app messages off. Limited per app.
 */
export const createNotification: Handler<'createNotification'> = async ({ body }, ctx) => {
  await spendSend(ctx.db, ctx.principal.credentialId);
  const team: string[] = (await ctx.db('team_members').where({ account_id: body.company_id, status: 'active' }).select('user_id'))
    .map((m: { user_id: string }) => m.user_id);
  let audience = team;
  if (body.user_ids) {
    const outside = body.user_ids.filter((id) => !team.includes(id));
    if (outside.length) throw invalid(`Not active team members of ${body.company_id}: ${outside.join(', ')}`, 'user_ids');
    audience = [...new Set(body.user_ids)];
  }
  if (body.icon_user_id && !(await ctx.db('users').where({ id: body.icon_user_id }).first('id'))) {
    throw invalid(`No such user: '${body.icon_user_id}'`, 'icon_user_id');
  }
  const off = new Set((await ctx.db('notification_preferences').where({ topic_id: APP_TOPIC, enabled: false }).whereIn('user_id', audience)
    .select('user_id')).map((p: { user_id: string }) => p.user_id));
  const recipients = audience.filter((id) => !off.has(id));
  if (recipients.length) {
    await ctx.db('notifications').insert(recipients.map((userId) => ({
      id: newId('ntf_'), user_id: userId, account_id: body.company_id, type: 'app_message', sender_api_key_id: ctx.principal.credentialId,
      title: body.title, subtitle: body.subtitle ?? null, content: body.content, icon_user_id: body.icon_user_id ?? null, rest_path: body.rest_path ?? null,
    })));
  }
  await ctx.db('notification_sends').insert({ id: newId('nsnd_'), api_key_id: ctx.principal.credentialId, account_id: body.company_id, recipients: recipients.length });
  return { success: true, recipients: recipients.length };
};
