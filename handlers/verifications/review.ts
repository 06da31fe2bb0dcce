// The review_verification job, queued when a verification is submitted: asks the identity checker
// (identity-checker-port.ts) about the answers and applies its findings. An answer objected to is asked again
// (action_required), an identity_rejected objection rejects the verification for good, no objection approves it; an
// approved identity clears kyc_incomplete on the account, and answers asked again hold its funds with
// pending_information_request until they are answered (handlers/verifications/updateVerification.ts).
// Idempotent: it locks the row and does nothing unless the verification is still processing.
import type { Knex } from 'knex';
import { recordEvent } from '../../generated/events.js';
import { transition } from '../../generated/state-machine.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import type { Requirement } from './requirements.js';
import { holdFunds, releaseFunds } from '../accounts/index.js';
import { identityChecker } from './identity-checker-port.js';

export const REVIEW_VERIFICATION = 'review_verification';

export const reviewVerificationJob = (verificationId: string) =>
  [REVIEW_VERIFICATION, { verification_id: verificationId }, { jobKey: `${REVIEW_VERIFICATION}:${verificationId}` }] as const;

export async function reviewVerification(db: Knex, verificationId: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await trx('verifications').where({ id: verificationId }).forUpdate().first();
    if (!row || row.status !== 'processing') return;
    const answers = row.answers as Record<string, unknown[]>;
    const requested = row.requested_information as Requirement[];
    const objections = await identityChecker().check({ purpose: row.purpose, requested_information: requested, answers });
    const entries = requested.map((entry) => {
      const error = objections[entry.id];
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
