// Written by hand, not declared plain: Transfer is no stored resource (no table:, its sides are accounts or users: transfer-view.ts), and the claim answers the claim it makes, not the link its path names.
import { timingSafeEqual } from 'node:crypto';
import type { Handler } from '../../generated/handler.js';
import { hashSecret } from '../../runtime/credentials.js';
import { ApiError, conflict, invalid, notFound } from '../../runtime/errors.js';
import { claimShare, lockClaimLink } from './claim-links.js';
import { balanceOf } from './transfer-ledger.js';
import { loadTransferView } from './transfer-view.js';
import { emitToSides } from './transfer-events.js';

/** Whether `code` is the one whose hash the link keeps, in time that does not depend on where they differ. */
const isCodeOf = (code: string, storedHash: string) => {
  const given = Buffer.from(hashSecret(code));
  const stored = Buffer.from(storedHash);
  return given.length === stored.length && timingSafeEqual(given, stored);
};

/**
 * POST /transfers/{id}/claim: one share of a claim link into the caller's personal wallet. The link's row lock
 * orders concurrent claims: each sees the shares the ones before it took, so the last share is taken exactly once.
 */
export const claimTransfer: Handler<'claimTransfer'> = async ({ path, body }, ctx) => {
  const claimant = ctx.principal.userId!;
  const link = await lockClaimLink(ctx.db, path.id);
  if (!link) throw notFound('claim link', path.id, 'id');
  if (link.destination_id !== null) {
    // An invite: only its user, who needs no code.
    if (link.destination_id !== claimant) throw notFound('claim link', path.id, 'id');
  } else if (body.code === undefined) {
    throw invalid('code is required: the code at the end of the claim link\'s claim_url', 'code');
  } else if (!isCodeOf(body.code, link.claim_code)) {
    throw notFound('claim link', path.id, 'id');
  }
  if (link.status === 'pending' && link.due) {
    throw new ApiError(400, 'invalid_state', 'This claim link has expired; its funds go back to its sender', 'status', { 'x-should-retry': 'false' });
  }
  const claimId = await claimShare(ctx.db, link, claimant, await balanceOf(ctx.db, claimant, link.currency));
  if (!claimId) throw conflict('You have already claimed this link', 'id');
  await emitToSides(ctx, 'transfer.claimed', await loadTransferView(ctx.db, link.id));
  return loadTransferView(ctx.db, claimId);
};
