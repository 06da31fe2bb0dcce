// The rules of the actions on one dispute (plain actions, spec/areas/disputes.yaml): the runtime finds and locks the
// dispute (payment:dispute), runs the rule, and answers the dispute as it then is.
import type { ActionHook } from '../../generated/plain-hooks.js';
import type { HandlerContext } from '../../generated/handler.js';
import type { DisputeRow } from '../../generated/rows.js';
import type { DisputeEvidence } from '../../generated/types.js';
import { nowMs } from '../shared/now.js';
import { assertEvidenceOpen, EVIDENCE_FIELDS, mergeEvidence } from './evidence.js';
import { submitEvidence } from './submit.js';

/** The evidence fields sent set on the locked dispute, while it needs a response and before its deadline; nothing
 * differing writes nothing and says so (no dispute.updated, as a plain update would). */
async function editEvidence(ctx: HandlerContext, d: DisputeRow, sent: Partial<Record<keyof DisputeEvidence, string | null>>) {
  assertEvidenceOpen(d);
  const stored = d.evidence;
  const evidence = mergeEvidence(stored, sent);
  if (EVIDENCE_FIELDS.every((k) => evidence[k] === (stored[k] ?? null))) return { unchanged: true as const };
  await ctx.db('disputes').where({ id: d.id }).update({ evidence: JSON.stringify(evidence), updated_at: nowMs(ctx.db) });
}

/** PATCH /disputes/{id}: the evidence object's fields. */
export const editEvidenceObject: ActionHook<'updateDispute'> = (d, { body }, ctx) => editEvidence(ctx, d, body.evidence);

/** POST /disputes/{id}/update_evidence: the official client's form (flat evidence fields). */
export const editFlatEvidence: ActionHook<'updateDisputeEvidence'> = (d, { body }, ctx) => editEvidence(ctx, d, body);

/** POST /disputes/{id}/submit: files the evidence (needs_response -> under_review; submit.ts, shared with the dispute
 * fighter); the card scheme rules in the background. */
export const submit: ActionHook<'submitDispute'> = async (d, _input, ctx) => {
  await submitEvidence(ctx.db, d, 'account');
};
