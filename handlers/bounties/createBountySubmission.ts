// Written by hand, not declared plain: its account is the bounty's (no body field a plain create checks scopes on), and it locks the bounty against its closing.
import type { Handler } from '../../generated/handler.js';
import { ApiError, conflict, notFound } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { lockBounty } from './bounty-ledger.js';

/** POST /bounty_submissions: any user may work an open bounty (it is posted for anyone); the lock orders this
 * against the bounty closing, so no attempt starts on a bounty that has just ended. */
export const createBountySubmission: Handler<'createBountySubmission'> = async ({ body }, ctx) => {
  const worker = ctx.principal.userId!;
  const bounty = await lockBounty(ctx.db, body.bounty_id);
  if (!bounty) throw notFound('bounty', body.bounty_id, 'bounty_id');
  if (bounty.status !== 'open') throw new ApiError(400, 'invalid_state', `This bounty is ${bounty.status}: it takes no new attempts`, 'bounty_id');
  const id = newId('bsub_');
  const [made] = await ctx.db('bounty_submissions')
    .insert({ id, bounty_id: bounty.id, account_id: bounty.account_id, user_id: worker, status: 'in_progress' })
    .onConflict(ctx.db.raw("(bounty_id, user_id) where deleted_at is null and status <> 'denied'")).ignore().returning('id');
  if (!made) throw conflict('You already have an attempt at this bounty', 'bounty_id');
  return readView(ctx.db, resources.BountySubmission, id);
};
