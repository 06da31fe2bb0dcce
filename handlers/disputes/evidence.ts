// Dispute evidence: the fields a seller files, and when they may still change.
import { ApiError } from '../../runtime/errors.js';
import { clockNow } from '../../runtime/clock.js';
import type { DisputeEvidence } from '../../generated/types.js';

export const EVIDENCE_FIELDS = [
  'access_activity_log', 'billing_address', 'cancellation_policy_disclosure', 'customer_email_address', 'customer_name',
  'notes', 'product_description', 'refund_policy_disclosure', 'refund_refusal_explanation', 'service_date',
] as const satisfies readonly (keyof DisputeEvidence)[];

/** Every field present, null where nothing was given: the stored document always has the whole shape. */
export const emptyEvidence = (): DisputeEvidence =>
  Object.fromEntries(EVIDENCE_FIELDS.map((k) => [k, null])) as unknown as DisputeEvidence;

/** The stored evidence with the fields sent (null clears one; undefined keeps it). */
export function mergeEvidence(stored: Partial<DisputeEvidence>, sent: Partial<Record<keyof DisputeEvidence, string | null | undefined>>): DisputeEvidence {
  const next = { ...emptyEvidence(), ...stored };
  for (const k of EVIDENCE_FIELDS) if (sent[k] !== undefined) next[k] = sent[k] ?? null;
  return next;
}

interface EditableRow { status: string; evidence_submitted_at: Date | string | null; response_due_at: Date | string }

const refuse = (message: string, param: string) => new ApiError(400, 'invalid_state', message, param, { 'x-should-retry': 'false' });

/** Evidence may change, and be submitted, only while the dispute needs a response, before it was submitted and
 * before response_due_at; otherwise a 400 invalid_state saying which. */
export function assertEvidenceOpen(d: EditableRow, now = clockNow().getTime()): void {
  if (d.evidence_submitted_at) {
    throw refuse(`Evidence was already submitted (at ${new Date(d.evidence_submitted_at).toISOString()}); it can no longer change`, 'evidence_submitted_at');
  }
  if (d.status !== 'needs_response') throw refuse(`A dispute whose status is ${d.status} takes no evidence`, 'status');
  const due = new Date(d.response_due_at);
  if (now >= due.getTime()) throw refuse(`The response deadline (response_due_at ${due.toISOString()}) has passed`, 'response_due_at');
}
