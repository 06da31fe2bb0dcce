// The sandbox card scheme: what an issuer and a card scheme do after a payment, as background jobs
// (graphile-worker). The card decides what follows a settled payment (its test behaviour, sandbox/processor/cards.ts,
// docs/sandbox/card-scheme.md): a chargeback, an early fraud warning, a dispute alert or a rapid dispute resolution, reported to the
// disputes area (handlers/disputes/network.ts), which applies it. Filed evidence is ruled on the same way. The area
// locks and re-reads its rows and ignores a report they have moved past, so a re-run job is harmless.
import type { Knex } from 'knex';
import { addJob } from '../../runtime/jobs.js';
import type { DisputeEvidence } from '../../generated/types.js';
import type { CardBehaviour } from '../../handlers/shared/card-processor-port.js';
import type { SettlementScheme } from '../../handlers/payments/index.js';
import type { DisputeScheme } from '../../handlers/disputes/index.js';
import { takeNetworkReport, takeRuling, type DisputeUnderReview, type SchemeReport, EVIDENCE_FIELDS, networkDelay as after } from '../../handlers/disputes/index.js';
import { cardBehaviourOf } from '../processor/index.js';

export const NETWORK_REPORT = 'dispute_network_report';
export const DISPUTE_RULING = 'dispute_ruling';

/** The sandbox's delays, in seconds, scaled by DISPUTE_NETWORK_SECONDS (handlers/disputes/submit.ts). */
const DELAYS = { report: 5, ruling: 30 };

function reportFor(behaviour: CardBehaviour): SchemeReport | null {
  if (behaviour === 'chargeback') return { kind: 'chargeback', reason: 'fraudulent' };
  if (behaviour === 'early_fraud_warning' || behaviour === 'dispute_alert') return { kind: 'alert', type: behaviour };
  if (behaviour === 'rapid_dispute_resolution') return { kind: 'rapid_dispute_resolution' };
  return null;
}

export const sandboxSettlementScheme: SettlementScheme = {
  /** A card the scheme will report on gets its report job. */
  async settled(db, payment) {
    if (!reportFor(await cardBehaviourOf(db, payment))) return;
    await addJob(db, NETWORK_REPORT, { payment_id: payment.id }, { jobKey: `${NETWORK_REPORT}:${payment.id}`, runAt: after(DELAYS.report) });
  },
};

export const sandboxDisputeScheme: DisputeScheme = {
  async evidenceSubmitted(db, disputeId) {
    await addJob(db, DISPUTE_RULING, { dispute_id: disputeId }, { jobKey: `${DISPUTE_RULING}:${disputeId}`, runAt: after(DELAYS.ruling) });
  },
};

/** The scheme's report on a settled payment: an alert or a dispute, once per payment. */
export async function reportOnPayment(db: Knex, paymentId: string): Promise<void> {
  await takeNetworkReport(db, paymentId, async (payment, trx) => reportFor(await cardBehaviourOf(trx, payment)));
}

/** The sandbox's ruling (docs/sandbox/card-scheme.md): evidence mentioning winning_evidence wins. */
export const evidenceWins = (evidence: Partial<DisputeEvidence>): boolean =>
  EVIDENCE_FIELDS.some((k) => (evidence[k] ?? '').includes('winning_evidence'));

/** Evidence mentioning winning_evidence wins, and so does the dispute fighter's for a payment that granted a
 * membership (the platform's record of delivery). */
const wins = (d: DisputeUnderReview): boolean =>
  evidenceWins(d.evidence) || (d.evidence_submitted_by === 'dispute_fighter' && d.membership_id != null);

/** The scheme's ruling on a dispute's submitted evidence. */
export async function ruleOnDispute(db: Knex, disputeId: string): Promise<void> {
  await takeRuling(db, disputeId, wins);
}
