// Filing evidence (POST /disputes/{id}/submit, or the dispute fighter): the dispute goes under review and the card
// scheme is asked to rule (card-scheme-port.ts).
import type { Knex } from 'knex';
import { addJob } from '../../runtime/jobs.js';
import { clockNow } from '../../runtime/clock.js';
import { recordEvent } from '../../generated/events.js';
import { transition } from '../../generated/state-machine.js';
import { resources } from '../../generated/resources.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import type { Dispute, DisputeEvidence } from '../../generated/types.js';
import { nowMs } from '../shared/now.js';
import { assertEvidenceOpen } from './evidence.js';
import { disputeScheme } from './card-scheme-port.js';

export const DISPUTE_FIGHTER = 'dispute_fighter';

/** Seconds scaled by DISPUTE_NETWORK_SECONDS (default 1; 0 makes the sandbox network's steps immediate). */
export const networkDelay = (seconds: number) => new Date(clockNow().getTime() + seconds * Number(process.env.DISPUTE_NETWORK_SECONDS ?? 1) * 1000);

export const fightDisputeJob = (db: Knex, disputeId: string) =>
  addJob(db, DISPUTE_FIGHTER, { dispute_id: disputeId }, { jobKey: `${DISPUTE_FIGHTER}:${disputeId}` });

export interface LockedDispute { id: string; account_id: string; status: string; evidence_submitted_at: Date | string | null; response_due_at: Date | string }

/** Files the evidence of a dispute the caller has locked; a 400 invalid_state when it can no longer be filed. */
export async function submitEvidence(db: Knex, d: LockedDispute, by: 'account' | 'dispute_fighter', evidence?: DisputeEvidence): Promise<Dispute> {
  assertEvidenceOpen(d);
  await db('disputes').where({ id: d.id }).update({
    status: transition('Dispute', d.status, 'submit'), evidence_submitted_at: nowMs(db), evidence_submitted_by: by,
    updated_at: nowMs(db), ...(evidence ? { evidence: JSON.stringify(evidence) } : {}),
  });
  const view = await readView(db, resources.Dispute, d.id);
  await recordEvent(db, 'dispute.submitted', d.account_id, view);
  await disputeScheme().evidenceSubmitted(db, d.id);
  return view;
}
