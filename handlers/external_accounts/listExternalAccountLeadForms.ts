// Written by hand, not declared plain: only active forms are listed, walked through (external_account_id, status,
// created_at, id) for that one status, which no declared filter says (a keyed filter walks a value the query gives).
import type { Handler } from '../../generated/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { loadOwned } from '../../runtime/ownership.js';
import { notFound } from '../../runtime/errors.js';
import { resources } from '../../generated/resources.js';
import { leadFormView, type LeadFormRow } from './lead-form-view.js';

/** GET /external_accounts/{id}/lead_forms: the page's active forms, newest first, in keyset pages over
 * (external_account_id, status, created_at, id). */
export const listExternalAccountLeadForms: Handler<'listExternalAccountLeadForms'> = async ({ path, query }, ctx) => {
  const account = await loadOwned(ctx, resources.ExternalAccount, path.id, ['social_account:read']);
  if (query.account_id !== undefined && query.account_id !== account.account_id) {
    throw notFound(resources.ExternalAccount.noun, path.id);
  }
  const q = ctx.db('external_account_lead_forms').where({ external_account_id: account.id });
  const { rows, page_info } = await paginate<LeadFormRow>(q, query, {
    sortColumn: 'created_at', idColumn: 'id', direction: 'desc', defaultSize: ctx.defaultPageSize,
    walk: { column: 'status', values: ['active'] },
  });
  return { data: rows.map(leadFormView), page_info };
};
