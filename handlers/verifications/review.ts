// The sandbox reviewer: a simulated identity checker run by the review_verification job, queued when a verification
// is submitted. Its documented values (spec/areas/verifications.yaml, README) decide: a tax id of 000000000 or a
// file named reject* rejects that answer (asked again: action_required), the name "Rejected Person" rejects the
// verification for good, anything else approves it; an approved identity clears kyc_incomplete on the account, and answers asked again hold
// its funds with pending_information_request until they are answered (handlers/verifications/updateVerification.ts).
// Idempotent: it locks the row and does nothing unless the verification is still processing.
import type { Knex } from 'knex';
import { recordEvent } from '../../runtime/events.js';
import { transition } from '../../runtime/state-machine.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import type { Requirement, VerificationError } from './requirements.js';
import { holdFunds, releaseFunds } from '../accounts/payment-controls.js';

export const REVIEW_VERIFICATION = 'review_verification';

export const reviewVerificationJob = (verificationId: string) =>
  [REVIEW_VERIFICATION, { verification_id: verificationId }, { jobKey: `${REVIEW_VERIFICATION}:${verificationId}` }] as const;

export const REJECTED_NAME = 'Rejected Person';
const REJECTED_TAX_ID = '000000000';

/** The reviewer's objection to one entry's answers, or null. */
function objection(entry: Requirement, answers: unknown[]): VerificationError | null {
  if ((entry.requirement === 'ssn' || entry.requirement === 'ein') && answers.includes(REJECTED_TAX_ID)) {
    return { code: 'tax_id_mismatch', reason: `The ${entry.requirement} does not match the name given.` };
  }
  if (entry.answer_type === 'file' && answers.some((a) => /^reject/i.test((a as { filename: string }).filename))) {
    return { code: 'document_unreadable', reason: 'The document could not be read; upload a clear, complete copy.' };
  }
  if ((entry.requirement === 'legal_name' || entry.requirement === 'business_name') && answers.includes(REJECTED_NAME)) {
    return { code: 'identity_rejected', reason: 'The identity could not be verified.' };
  }
  return null;
}

export async function reviewVerification(db: Knex, verificationId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await trx('verifications').where({ id: verificationId }).forUpdate().first();
    if (!row || row.status !== 'processing') return;
    const answers = row.answers as Record<string, unknown[]>;
    const entries = (row.requested_information as Requirement[]).map((entry) => {
      const error = objection(entry, answers[entry.id] ?? []);
      return error ? { ...entry, answered: false, errors: [error] } : entry;
    });
    const rejected = entries.some((e) => e.errors.some((x) => x.code === 'identity_rejected'));
    const objected = entries.some((e) => !e.answered);
    const action = rejected ? 'reject' : objected ? 'request_again' : 'approve';
    const kept = Object.fromEntries(Object.entries(answers).filter(([id]) => entries.find((e) => e.id === id)?.answered));
    const [updated] = await trx('verifications').where({ id: row.id }).update({
      status: transition('Verification', row.status, action), requested_information: JSON.stringify(entries),
      answers: JSON.stringify(kept), reviewed_at: nowMs(trx), updated_at: nowMs(trx),
    }).returning('*');
    // The account's held funds follow the review (handlers/accounts/payment-controls.ts): answers asked again hold
    // them with pending_information_request (over no other reason) until answered; an approved identity releases
    // kyc_incomplete.
    if (action === 'approve' && row.purpose === 'identity') await releaseFunds(trx, row.account_id, 'kyc_incomplete');
    if (action === 'request_again') await holdFunds(trx, row.account_id, 'pending_information_request');
    await recordEvent(trx, 'verification.updated', row.account_id, resources.Verification.view(updated));
  });
}
