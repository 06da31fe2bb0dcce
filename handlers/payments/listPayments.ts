// Written by hand, not declared plain: status, statuses and substatuses narrow one walked column together
// (payments_account_status_created), and billing_reason subscription_cycle also matches renewals recorded as
// subscription_update.
import type { Handler } from '../../generated/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { walkOf, whereEqual } from '../../runtime/filters.js';
import { ownedPage } from '../../runtime/ownership.js';
import { selectRows } from '../../runtime/plain/stored-resource.js';
import type { PaymentRow } from '../../generated/rows.js';
import { resources } from '../../generated/resources.js';

// A buyer's own token is not served for native payment reads (seed, Authentication point 6).
const NOT_FOR_BUYERS = "Reading payments needs payment:basic:read on an account (a team member's token or the account's API key); a buyer's own token is not served";

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Renewals recorded as subscription_update are cycles too: billing_reason subscription_cycle matches both. */
function cycles(reason: string | string[] | undefined): string | string[] | undefined {
  if (reason === undefined) return undefined;
  const reasons: string[] = [reason].flat();
  return reasons.includes('subscription_cycle') ? [...new Set([...reasons, 'subscription_update'])] : reason;
}

/** GET /payments: one account's payments (checked by the runtime) or those of every account readable. */
export const listPayments: Handler<'listPayments'> = async ({ query }, ctx) => {
  // Its rows are only rendered (and paged by created_at and id, which the view reads too).
  const q = selectRows(ctx.db, resources.Payment, 'view');
  // Led by the account (payments_created_at_id_index serves the lists across accounts).
  const leading = await ownedPage(ctx, q, 'payments.account_id', 'payments.created_at', 'payment:basic:read', query.account_id, NOT_FOR_BUYERS);
  whereEqual(q, query, {
    currency: 'payments.currency', currencies: 'payments.currency',
    plan_id: 'payments.plan_id', plan_ids: 'payments.plan_id',
    product_id: 'payments.product_id', product_ids: 'payments.product_id',
    checkout_configuration_ids: 'payments.checkout_configuration_id',
    membership_id: 'payments.membership_id', member_id: 'payments.member_id', user_id: 'payments.user_id',
  });
  // Its own object, not the query spread with these two replaced: V8 gives a spread copy's added properties new hidden
  // classes on every request (two per request here, found by --log-maps), which died in the old generation.
  whereEqual(q, { billing_reason: cycles(query.billing_reason), billing_reasons: cycles(query.billing_reasons) },
    { billing_reason: 'payments.billing_reason', billing_reasons: 'payments.billing_reason' });
  if (query.include_free === false) q.where('payments.total', '>', 0);
  if (query.created_after) q.where('payments.created_at', '>', query.created_after);
  if (query.created_before) q.where('payments.created_at', '<', query.created_before);
  if (query.updated_after) q.where('payments.updated_at', '>', query.updated_after);
  if (query.updated_before) q.where('payments.updated_at', '<', query.updated_before);
  if (query.query) {
    const like = `%${escapeLike(query.query.toLowerCase())}%`;
    q.where((w) => w.whereRaw('lower("user".username) like ?', [like]).orWhereRaw('lower("user".name) like ?', [like])
      .orWhereRaw('lower("user".email) like ?', [like]));
  }
  const { rows, page_info } = await paginate<PaymentRow>(q, query, {
    defaultSize: ctx.defaultPageSize, sortColumn: 'payments.created_at', idColumn: 'payments.id', leading,
    // payments_account_status_created (migrations/230) holds the status before created_at
    walk: walkOf(query, 'payments.status', ['status', 'statuses', 'substatuses']),
  });
  // List rows never show when the funds settled (the seed: retrieve only). Set on the view, not spread into a copy:
  // V8 makes a spread copy's later property deletes (older versions' renames) ten times slower (npm run bench).
  return { data: rows.map((r) => Object.assign(resources.Payment.view(r), { settlement_time_at: null })), page_info };
};
