// Before 2026-07-30 (entry 52) a dispute had the shape the official client shows: company, flat evidence, editable.
import { EVIDENCE_FIELDS } from '../../../handlers/disputes/evidence.js';

export function down(d: any): any {
  const editable = d.status === 'needs_response' && !d.evidence_submitted_at && Date.parse(d.response_due_at) > Date.now();
  const legacy: any = {
    id: d.id, amount: d.amount, currency: d.amount.currency, company: { id: d.account_id },
    product: d.product_id ? { id: d.product_id } : null, plan: d.plan_id ? { id: d.plan_id } : null,
    payment: d.payment ? { id: d.payment.id } : null, reason: d.reason, status: d.status,
    needs_response_by: d.response_due_at, editable, visa_rdr: false, created_at: d.created_at,
  };
  for (const k of EVIDENCE_FIELDS) legacy[k] = d.evidence?.[k] ?? null;
  return legacy;
}
