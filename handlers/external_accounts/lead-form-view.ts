// A network form's row as the ExternalAccountLeadForm the API shows: named by its platform id.
import type { ExternalAccountLeadForm } from '../../generated/types.js';
import type { Tables } from '../../generated/rows.js';

/** A row of external_account_lead_forms (its status: text this area writes with the API's values). */
export type LeadFormRow = Omit<Tables['external_account_lead_forms'], 'status'> & { status: ExternalAccountLeadForm['status'] };

export const leadFormView = (r: LeadFormRow): ExternalAccountLeadForm => ({
  id: r.platform_form_id, external_account_id: r.external_account_id, name: r.name, locale: r.locale,
  privacy_policy_url: r.privacy_policy_url, question_labels: r.question_labels, status: r.status,
  created_at: new Date(r.created_at).toISOString(),
});
