// Written by hand, not declared plain: acts on a lead form found by the path's form_id under the external account, and answers the form, not the external account.
import type { Handler } from '../../generated/handler.js';
import { ApiError, notFound } from '../../runtime/errors.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { leadFormView } from './lead-form-view.js';

/** POST /sandbox/external_accounts/{id}/lead_forms/{form_id}/archive: the page's owner archives a form on the
 * network. Ads that use it keep their lead_form_id; new ads cannot name it. */
export const archiveSandboxExternalAccountLeadForm: Handler<'archiveSandboxExternalAccountLeadForm'> = async ({ path }, ctx) => {
  const account = await loadOwned(ctx, resources.ExternalAccount, path.id, ['social_account:update']);
  const form = await ctx.db('external_account_lead_forms').where({ external_account_id: account.id, platform_form_id: path.form_id })
    .forUpdate().first();
  if (!form) throw notFound('instant form', path.form_id);
  if (form.status !== 'active') throw new ApiError(400, 'invalid_state', `Instant form ${path.form_id} is already archived`, 'status');
  const [row] = await ctx.db('external_account_lead_forms').where({ id: form.id })
    .update({ status: 'archived', updated_at: nowMs(ctx.db) }).returning('*');
  return leadFormView(row);
};
