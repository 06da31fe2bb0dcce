// Every move of a Resolution Center case goes through here: the payment locked first, then the case (the lock order
// of a payment's money: refunds and chargebacks hold the payment before anything hanging off it), the move checked
// by the state machine, the row written, the timeline entry and the webhook event recorded, all in the caller's
// transaction.
import type { Knex } from 'knex';
import { addJob } from '../../runtime/jobs.js';
import { recordEvent } from '../../generated/events.js';
import { newId } from '../../runtime/ids.js';
import { transition } from '../../generated/state-machine.js';
import type { StateAction } from '../../generated/spec-data.js';
import { resources } from '../../generated/resources.js';
import { readRow, readView } from '../../runtime/plain/stored-resource.js';
import type { ResolutionCenterCase } from '../../generated/types.js';
import type { PaymentRow } from '../shared/payment-row.js';
import { nowMs } from '../shared/now.js';
import type { HandlerContext } from '../../generated/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { readyFiles } from '../files/index.js';
import { lockWithPayment } from '../shared/lock-with-payment.js';
import type { ResolutionCenterCaseRow } from '../../generated/rows.js';

export const CASE_DEADLINE = 'resolution_case_deadline';
export const CASE_REVIEW = 'resolution_case_review';
/** The merchant's time to answer (docs/sandbox/case-platform.md); not scaled, like a dispute's response window. */
export const RESPONSE_WINDOW_SECONDS = 3 * 24 * 3600;

export type CaseRow = ResolutionCenterCaseRow;
export type Actor = 'merchant' | 'customer' | 'platform' | 'system';
type Move = StateAction<'ResolutionCenterCase'>;
type EventName = 'resolution_center_case.created' | 'resolution_center_case.updated' | 'resolution_center_case.escalated' | 'resolution_center_case.closed';

/** Attachments are files of the files area (handlers/files/) the caller uploaded and finished: another caller's file,
 * or one still uploading, is a 400 naming its place in the list (nothing is written). */
export async function checkAttachments(ctx: HandlerContext, attachments: readonly string[] | undefined): Promise<void> {
  if (attachments) await readyFiles(ctx, attachments.map((id, i) => ({ id, field: `attachments.${i}` })));
}

/** The case and its payment, locked payment first; undefined when the case does not exist. */
export function lockCase(db: Knex, caseId: string): Promise<{ row: CaseRow; payment: PaymentRow } | undefined> {
  return lockWithPayment(db, 'resolution_center_cases', caseId, async (trx) => (await readRow(trx, resources.ResolutionCenterCase, caseId, 'lock'))!);
}

export interface Step {
  actor: Actor;
  action: 'opened' | 'responded' | 'replied' | 'escalated' | 'refunded' | 'closed' | 'withdrawn' | 'ruled_for_merchant' | 'charged_back';
  message?: string | null;
  attachments?: readonly string[];
}

/** The case row's columns a move sets besides status, response_due_at and resolved_at. */
type Changes = { outcome?: string; escalated?: boolean; refund_id?: string; dispute_id?: string | null };

/** Moves a locked case (a 400 invalid_state naming status when the machine refuses), writes it, adds the timeline
 * entry and the event, and keeps the merchant's deadline: set (and its job queued) when the case waits on the
 * merchant, null otherwise; a closed case is resolved. */
export async function moveCase(db: Knex, c: CaseRow, move: Move, step: Step, event: EventName, changes: Changes = {}):
  Promise<ResolutionCenterCase> {
  const status = transition('ResolutionCenterCase', c.status, move);
  const due = status === 'awaiting_merchant'
    ? db.raw(`date_trunc('milliseconds', now()) + make_interval(secs => ?)`, [RESPONSE_WINDOW_SECONDS]) : null;
  const [row] = await db('resolution_center_cases').where({ id: c.id }).update({
    status, ...changes, response_due_at: due, resolved_at: status === 'closed' ? nowMs(db) : null, updated_at: nowMs(db),
  }).returning(['response_due_at']);
  if (status === 'awaiting_merchant') await queueDeadline(db, c.id, row.response_due_at);
  return record(db, c, step, event);
}

/** The timeline entry and the webhook event of a step, answering the case as it now is. */
export async function record(db: Knex, c: { id: string; account_id: string }, step: Step, event: EventName): Promise<ResolutionCenterCase> {
  await db('resolution_center_case_events').insert({
    id: newId('rcce_'), case_id: c.id, account_id: c.account_id, actor: step.actor, action: step.action,
    message: step.message ?? null, attachments: JSON.stringify(step.attachments ?? []),
  });
  const view = await readView(db, resources.ResolutionCenterCase, c.id);
  await recordEvent(db, event, c.account_id, view);
  return view;
}

/** The deadline job at response_due_at; a later deadline replaces the pending one (the job key). */
export const queueDeadline = (db: Knex, caseId: string, due: Date | string) =>
  addJob(db, CASE_DEADLINE, { case_id: caseId }, { jobKey: `${CASE_DEADLINE}:${caseId}`, runAt: new Date(due) });

/** A case the caller may act on with `scopes` (404 for another account's, 403 without a scope), locked with its
 * payment in the lock order above. */
export async function lockOwnedCase(ctx: HandlerContext, id: string, scopes: readonly string[]) {
  await loadOwned(ctx, resources.ResolutionCenterCase, id, scopes);
  return (await lockCase(ctx.db, id))!;
}

/** The finder of the case moves declared plain (plain.find): lockOwnedCase's case, its payment locked before it
 * (the lock order above), rather than the plain kinds' lock of the case alone. */
export async function findOwnedCase(ctx: HandlerContext, id: string, how: { scopes: readonly string[]; lock: boolean }): Promise<CaseRow> {
  if (!how.lock) return loadOwned(ctx, resources.ResolutionCenterCase, id, how.scopes);
  return (await lockOwnedCase(ctx, id, how.scopes)).row;
}

/** The payment's open case, locked; the caller holds the payment (the lock order above). */
const openCaseOf = (db: Knex, paymentId: string): Promise<CaseRow | undefined> =>
  db('resolution_center_cases').where({ payment_id: paymentId }).whereNot({ status: 'closed' }).forUpdate().first();

/** A chargeback opened on the payment (handlers/disputes/network.ts openDispute, in its transaction): the buyer's
 * bank took the complaint over, so the open case ends disputed, naming the dispute. */
export async function closeOnChargeback(db: Knex, paymentId: string, disputeId: string): Promise<void> {
  const c = await openCaseOf(db, paymentId);
  if (c) {
    await moveCase(db, c, 'charge_back', { actor: 'system', action: 'charged_back', message: `The payment was charged back (${disputeId}).` },
      'resolution_center_case.closed', { outcome: 'disputed', dispute_id: disputeId });
  }
}

/** A refund settled and left the payment refunded in full (handlers/refunds/refund-follow-ups-port.ts, in its transaction):
 * the buyer has the money, so the open case ends refunded, with that refund. */
export async function closeOnFullRefund(db: Knex, paymentId: string, refundId: string): Promise<void> {
  const c = await openCaseOf(db, paymentId);
  if (c) {
    await moveCase(db, c, 'refund', { actor: 'system', action: 'refunded', message: `The payment was refunded in full (${refundId}).` },
      'resolution_center_case.closed', { outcome: 'refunded', refund_id: refundId });
  }
}
