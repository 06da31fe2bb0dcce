// Editing a dispute's evidence, shared by PATCH /disputes/{id} and the official client's
// POST /disputes/{id}/update_evidence.
import type { HandlerContext } from '../../generated/handler.js';
import type { Dispute, DisputeEvidence } from '../../generated/types.js';
import { resources } from '../../generated/resources.js';
import { loadOwned } from '../../runtime/ownership.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { nowMs } from '../shared/now.js';
import type { LockedDispute } from './submit.js';
import { assertEvidenceOpen, EVIDENCE_FIELDS, mergeEvidence } from './evidence.js';

export async function editEvidence(ctx: HandlerContext, id: string, sent: Partial<Record<keyof DisputeEvidence, string | null>>): Promise<Dispute> {
  const d = await loadOwned(ctx, resources.Dispute, id, ['payment:dispute'], { forUpdate: true }) as LockedDispute & { evidence: DisputeEvidence } & Record<string, unknown>;
  assertEvidenceOpen(d);
  const evidence = mergeEvidence(d.evidence, sent);
  // Nothing differing writes nothing and emits nothing, as a plain update would.
  if (EVIDENCE_FIELDS.every((k) => evidence[k] === (d.evidence[k] ?? null))) return resources.Dispute.view(d as never);
  await ctx.db('disputes').where({ id }).update({ evidence: JSON.stringify(evidence), updated_at: nowMs(ctx.db) });
  const view = await readView(ctx.db, resources.Dispute, id);
  await ctx.emit('dispute.updated', d.account_id, view);
  return view;
}
