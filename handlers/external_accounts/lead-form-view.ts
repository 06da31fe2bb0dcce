// A network form's row as the ExternalAccountLeadForm the API shows: named by its platform id.
import type { ExternalAccountLeadForm } from '../../generated/types.js';

export const leadFormView = (r: Record<string, any>): ExternalAccountLeadForm => ({
  id: r.platform_form_id, external_account_id: r.external_account_id, name: r.name, locale: r.locale,
  privacy_policy_url: r.privacy_policy_url, question_labels: r.question_labels, status: r.status,
  created_at: new Date(r.created_at).toISOString(),
});
