// Written by hand, not a plain transition: the evidence window is checked before the move and the card scheme told (submit.ts, shared with the dispute fighter).
import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { loadOwned } from '../../runtime/ownership.js';
import { submitEvidence, type LockedDispute } from './submit.js';

/** POST /disputes/{id}/submit: files the evidence (needs_response -> under_review); the network rules in the background. */
export const submitDispute: Handler<'submitDispute'> = async ({ path }, ctx) => {
  const d = await loadOwned(ctx, resources.Dispute, path.id, ['payment:dispute'], { forUpdate: true }) as LockedDispute & Record<string, unknown>;
  return submitEvidence(ctx.db, d, 'account');
};
