// The hand-off from a settling payment to the sandbox card network (network.ts): a card the network will report on
// gets its report job. Its own module, importing nothing of the payments or refunds areas, so settlement
// (handlers/payments/settlement.ts) queues the report without a loop back through the network.
import type { Knex } from 'knex';
import { addJob } from '../../runtime/jobs.js';
import { cardBehaviourOf, type PaidWith } from '../processor/card-behaviour.js';
import { networkDelay as after } from './submit.js';

export const NETWORK_REPORT = 'dispute_network_report';

/** The sandbox's delay, in seconds, before the network reports, scaled by DISPUTE_NETWORK_SECONDS (submit.ts). */
const REPORT_DELAY = 5;

const NETWORK_BEHAVIOURS = new Set(['chargeback', 'early_fraud_warning', 'dispute_alert', 'rapid_dispute_resolution']);

/** Called as a payment settles (handlers/payments/settlement.ts): a card the network will report on gets its job. */
export async function queueNetworkReport(db: Knex, payment: PaidWith & { id: string }): Promise<void> {
  if (!NETWORK_BEHAVIOURS.has(await cardBehaviourOf(db, payment))) return;
  await addJob(db, NETWORK_REPORT, { payment_id: payment.id }, { jobKey: `${NETWORK_REPORT}:${payment.id}`, runAt: after(REPORT_DELAY) });
}
