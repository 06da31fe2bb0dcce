// The sandbox identity checker. Its documented values (spec/areas/verifications.yaml, docs/sandbox/identity-checker.md) decide: a tax id of
// 000000000 or a file named reject* is objected to (the area asks again), the name "Rejected Person" rejects the
// identity, anything else stands.
import type { IdentityChecker, Requirement, VerificationError } from '../../handlers/verifications/index.js';

export const REJECTED_NAME = 'Rejected Person';
const REJECTED_TAX_ID = '000000000';

/** The checker's objection to one entry's answers, or null. */
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

export const sandboxIdentityChecker: IdentityChecker = {
  async check({ requested_information, answers }) {
    const objections: Record<string, VerificationError> = {};
    for (const entry of requested_information) {
      const error = objection(entry, answers[entry.id] ?? []);
      if (error) objections[entry.id] = error;
    }
    return objections;
  },
};
