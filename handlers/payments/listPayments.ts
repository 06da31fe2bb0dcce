import type { Handler } from '../../runtime/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { whereEqual } from '../../runtime/filters.js';
import { whereOwned } from '../../runtime/ownership.js';
import { paymentRows, paymentView, type PaymentRow } from './payment-view.js';

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
  const q = paymentRows(ctx.db);
  await whereOwned(ctx.access, q, 'p.account_id', 'payment:basic:read', query.account_id, NOT_FOR_BUYERS);
  whereEqual(q, { ...query, billing_reason: cycles(query.billing_reason), billing_reasons: cycles(query.billing_reasons) }, {
    status: 'p.status', statuses: 'p.status', substatuses: 'p.status',
    billing_reason: 'p.billing_reason', billing_reasons: 'p.billing_reason',
    currency: 'p.currency', currencies: 'p.currency',
    plan_id: 'p.plan_id', plan_ids: 'p.plan_id',
    product_id: 'p.product_id', product_ids: 'p.product_id',
    checkout_configuration_ids: 'p.checkout_configuration_id',
    membership_id: 'p.membership_id', member_id: 'p.member_id', user_id: 'p.user_id',
  });
  if (query.include_free === false) q.where('p.total', '>', 0);
  if (query.created_after) q.where('p.created_at', '>', query.created_after);
  if (query.created_before) q.where('p.created_at', '<', query.created_before);
  if (query.updated_after) q.where('p.updated_at', '>', query.updated_after);
  if (query.updated_before) q.where('p.updated_at', '<', query.updated_before);
  if (query.query) {
    const like = `%${escapeLike(query.query.toLowerCase())}%`;
    q.where((w) => w.whereRaw('lower(u.username) like ?', [like]).orWhereRaw('lower(u.name) like ?', [like])
      .orWhereRaw('lower(u.email) like ?', [like]));
  }
  const { rows, page_info } = await paginate<PaymentRow>(q, query, {
    defaultSize: ctx.defaultPageSize, sortColumn: 'p.created_at', idColumn: 'p.id',
  });
  return { data: rows.map((r) => paymentView(r, { list: true })), page_info };
};
