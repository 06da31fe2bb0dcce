// Written by hand, not a plain transition: several rows move: the open submissions are denied and the escrow goes back (endBounty, shared with completion).
import type { Handler } from '../../generated/handler.js';
import { requireOwned } from '../../runtime/ownership.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { endBounty, lockBounty } from './bounty-ledger.js';

/** POST /bounties/{id}/close: the locked bounty leaves open; its open attempts are denied and its leftover escrow returned. */
export const closeBounty: Handler<'closeBounty'> = async ({ path }, ctx) => {
  const bounty = await requireOwned(ctx.access, await lockBounty(ctx.db, path.id), ['payout:transfer_funds'], { noun: 'bounty', id: path.id });
  await endBounty(ctx.db, bounty, 'close');
  const view = await readView(ctx.db, resources.Bounty, bounty.id);
  await ctx.emit('bounty.closed', bounty.account_id, view);
  return view;
};
