// The platform's side of a case, as background jobs (graphile-worker) with real state: the merchant's deadline,
// which escalates an unanswered case, and the platform's review of an escalated one (asked through
// platform-port.ts), whose ruling for the merchant or for a chargeback (a dispute, handlers/disputes/network.ts) this
// area applies.
// Each job is one transaction that locks the payment, then the case, re-reads it and does nothing when the case has
// moved on, so a re-run job is harmless.
import type { Knex } from 'knex';
import { clockNow } from '../../runtime/clock.js';
import type { TaskList } from 'graphile-worker';
import { addJob } from '../../runtime/jobs.js';
import type { ResolutionCenterCase } from '../../generated/types.js';
import { openDispute, networkDelay } from '../disputes/index.js';
import { CASE_DEADLINE, CASE_REVIEW, lockCase, moveCase, type CaseRow, type Step } from './case-steps.js';
import { casePlatform } from './platform-port.js';

/** The review's delay, in seconds, scaled by DISPUTE_NETWORK_SECONDS like the sandbox network's steps. */
const REVIEW_SECONDS = 60;

/** The chargeback reason a case's complaint becomes. */
const DISPUTE_REASON: Record<string, string> = {
  forgot_to_cancel: 'subscription_canceled',
  item_not_received: 'product_not_received',
  significantly_not_as_described: 'product_unacceptable',
  unauthorized_transaction: 'fraudulent',
  product_unacceptable: 'product_unacceptable',
};

/** A locked case goes to the platform (by the merchant, or by the deadline) and its review is queued. */
export async function escalateCase(db: Knex, c: CaseRow, step: Step): Promise<ResolutionCenterCase> {
  const view = await moveCase(db, c, 'escalate', step, 'resolution_center_case.escalated', { escalated: true });
  await addJob(db, CASE_REVIEW, { case_id: c.id }, { jobKey: `${CASE_REVIEW}:${c.id}`, runAt: networkDelay(REVIEW_SECONDS) });
  return view;
}

/** response_due_at passed while the case still waited on the merchant: it escalates. */
export async function escalateUnanswered(db: Knex, caseId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const c = (await lockCase(trx, caseId))?.row;
    if (!c || c.status !== 'awaiting_merchant' || !c.response_due_at || new Date(c.response_due_at).getTime() > clockNow().getTime()) return;
    await escalateCase(trx, c, { actor: 'system', action: 'escalated', message: 'The merchant did not answer by the response deadline.' });
  });
}

/** The platform's ruling on an escalated case, applied: closed for the merchant; or the payment charged back (a
 * dispute, or the one the network already opened). */
export async function reviewCase(db: Knex, caseId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const locked = await lockCase(trx, caseId);
    if (!locked || locked.row.status !== 'awaiting_platform') return;
    const { row: c, payment } = locked;
    const messages: (string | null)[] = await trx('resolution_center_case_events').where({ case_id: c.id, actor: 'merchant' })
      .orderBy('created_at').orderBy('id').pluck('message');
    const ruling = await casePlatform().review({
      id: c.id, reason: c.reason, merchant_messages: messages.filter((m): m is string => typeof m === 'string'),
    });
    if (ruling === 'merchant_won') {
      await moveCase(trx, c, 'rule_for_merchant', { actor: 'platform', action: 'ruled_for_merchant' }, 'resolution_center_case.closed',
        { outcome: 'merchant_won' });
      return;
    }
    const existing = await trx('disputes').where({ payment_id: payment.id }).first('id');
    const disputeId = existing?.id ?? await openDispute(trx, payment, DISPUTE_REASON[c.reason], null);
    // Nothing left to charge back (refunded in full outside the case): the buyer already has the money.
    await moveCase(trx, c, 'charge_back', { actor: 'platform', action: 'charged_back' }, 'resolution_center_case.closed',
      disputeId ? { outcome: 'disputed', dispute_id: disputeId } : { outcome: 'refunded' });
  });
}

export function resolutionCenterTasks(db: Knex): TaskList {
  const byCase = (run: (db: Knex, id: string) => Promise<void>) =>
    async (payload: unknown) => { await run(db, (payload as { case_id: string }).case_id); };
  return { [CASE_DEADLINE]: byCase(escalateUnanswered), [CASE_REVIEW]: byCase(reviewCase) };
}
