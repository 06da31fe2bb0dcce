// What the verifications area asks of an identity checker: its objection to each answered requirement, if any. The
// review_verification job (review.ts) asks with the verification locked and applies the findings itself: the
// status, the requirements asked again, the account's held funds, the event.
import { definePort } from '../../runtime/ports.js';
import type { Requirement, VerificationError } from './requirements.js';

export type { Requirement, VerificationError } from './requirements.js';

export interface IdentitySubmission {
  purpose: string;
  requested_information: Requirement[];
  /** the answers by requirement id */
  answers: Record<string, unknown[]>;
}

export interface IdentityChecker {
  /** The objections by requirement id; none: every answer stands. An identity_rejected objection rejects the
   * verification for good. */
  check(submission: IdentitySubmission): Promise<Record<string, VerificationError>>;
}

export const identityChecker = definePort<IdentityChecker>('identity checker');
