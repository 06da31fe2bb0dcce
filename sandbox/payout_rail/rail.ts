// The sandbox payout rail: what a bank, card network, wallet or chain would do with a payout, as steps run by
// background jobs (graphile-worker). Each run of the payout_rail_step task looks at the payout where it stands and
// reports its next step to the payouts area (handlers/payouts/rail-reports.ts), which applies it in one transaction
// with the payout locked; the rail queues its following step in that transaction. A payout that has moved on gets
// no report, so a re-run job (after a crash) is harmless. The destination decides the outcome (test numbers in
// TEST_DESTINATIONS, documented in docs/sandbox/payout-rail.md); every other destination is paid.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { addJob } from '../../runtime/jobs.js';
import { clockNow } from '../../runtime/clock.js';
import type { PayoutRail } from '../../handlers/payouts/index.js';
import { takeRailReport, type RailPayout, type RailReport } from '../../handlers/payouts/index.js';

export const PAYOUT_RAIL_STEP = 'payout_rail_step';

/** Destination numbers (fields.account_number) with a scripted outcome. */
export const TEST_DESTINATIONS = {
  /** the rail cannot deliver: failed, R03 */
  fails: '000111111116',
  /** delivered, then returned by the bank: completed, then reversed with R02 */
  reversed: '000222222227',
  /** always reviewed, and review refuses it: denied */
  denied: '000333333335',
} as const;

/** Review: amounts of 10,000.00 or more, and 1,000.00 or more from an account younger than a day. */
export const REVIEW_AMOUNT = 1_000_000;
export const NEW_ACCOUNT_REVIEW_AMOUNT = 100_000;
const NEW_ACCOUNT_MS = 24 * 3600 * 1000;

/** How long the sandbox takes per step, in seconds (PAYOUT_RAIL_SECONDS scales them; 0 makes every step immediate). */
const scale = () => Number(process.env.PAYOUT_RAIL_SECONDS ?? 1);
const DELAYS = { review: 30, standard: 20, instant: 2, returned: 30 };
const after = (seconds: number) => new Date(clockNow().getTime() + seconds * scale() * 1000);

const stepJob = (payoutId: string) => ({ task: PAYOUT_RAIL_STEP, payload: { payout_id: payoutId }, options: { jobKey: `${PAYOUT_RAIL_STEP}:${payoutId}` } });

async function queueStep(db: Knex, payoutId: string, runAt: Date): Promise<void> {
  const job = stepJob(payoutId);
  await addJob(db, job.task, job.payload, { ...job.options, runAt });
}

/** Whether a new payout goes to review first. */
export function needsReview(p: { amount: number; destination: string }, accountCreatedAt: Date | null): boolean {
  if (p.destination === TEST_DESTINATIONS.denied || p.amount >= REVIEW_AMOUNT) return true;
  return accountCreatedAt !== null && clockNow().getTime() - accountCreatedAt.getTime() < NEW_ACCOUNT_MS && p.amount >= NEW_ACCOUNT_REVIEW_AMOUNT;
}

interface Move extends RailReport { next?: number }

function nextMove(p: RailPayout): Move | null {
  const destination = p.destination;
  switch (p.status) {
    case 'requested':
      return needsReview({ amount: p.amount, destination }, p.account_created_at)
        ? { action: 'review', detail: 'Held for review: a large amount or a new account.', next: DELAYS.review }
        : { action: 'process', detail: 'Sent to the rail.', next: DELAYS[p.speed] };
    case 'in_review':
      return destination === TEST_DESTINATIONS.denied
        ? { action: 'deny', detail: 'Review refused the payout.' }
        : { action: 'process', detail: 'Approved in review; sent to the rail.', next: DELAYS[p.speed] };
    case 'processing':
      return destination === TEST_DESTINATIONS.fails
        ? { action: 'fail', detail: 'The destination could not be found.', failure: { code: 'R03', message: 'No account / unable to locate account' } }
        : { action: 'complete', detail: 'Delivered.', next: destination === TEST_DESTINATIONS.reversed ? DELAYS.returned : undefined };
    case 'completed':
      return destination === TEST_DESTINATIONS.reversed && !p.failure_code
        ? { action: 'reverse', detail: 'The destination bank returned the payout.', failure: { code: 'R02', message: 'Account closed' } }
        : null;
    default:
      return null;
  }
}

/** One step of a payout; returns the status it reached, or null when there was nothing to do. */
export async function stepPayout(db: Knex, payoutId: string): Promise<string | null> {
  return takeRailReport(db, payoutId, async (payout, trx) => {
    const move = nextMove(payout);
    if (!move) return null;
    const { next, ...report } = move;
    if (next !== undefined) await queueStep(trx, payout.id, after(next));
    return report;
  });
}

export const payoutRailStepTask = (db: Knex): Task => async (payload) => {
  await stepPayout(db, (payload as { payout_id: string }).payout_id);
};

export const sandboxPayoutRail: PayoutRail = { handOver: stepJob };
