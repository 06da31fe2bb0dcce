// Written by hand, not declared plain: money: escrows the reward pool in the ledger with the row.
import type { Handler } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { CENTS_PER_DOLLAR, escrowPool } from './bounty-ledger.js';

/** POST /bounties: the row and its escrow in one transaction; a pool the balance cannot cover writes nothing. */
export const createBounty: Handler<'createBounty'> = async ({ body }, ctx) => {
  const id = newId('bnty_');
  const limit = body.accepted_submissions_limit ?? 1;
  const escrow = body.gross_reward_amount * limit * CENTS_PER_DOLLAR;
  await ctx.db('bounties').insert({
    id, account_id: body.account_id, title: body.title, description: body.description, status: 'open', currency: 'usd',
    gross_reward_amount: body.gross_reward_amount, accepted_submissions_limit: limit, escrow_amount: escrow,
  });
  await escrowPool(ctx.db, id, body.account_id, 'usd', escrow);
  const view = await readView(ctx.db, resources.Bounty, id);
  await ctx.emit('bounty.created', body.account_id, view);
  return view;
};
