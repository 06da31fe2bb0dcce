import type { Handler } from '../../runtime/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { whereReadable } from './readable-accounts.js';
import { paymentRows, paymentView, type PaymentRow } from './payment-view.js';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** GET /payments: one account's payments (checked by the runtime) or those of every account readable. */
export const listPayments: Handler<'listPayments'> = async ({ query }, ctx) => {
  const q = paymentRows(ctx.db);
  if (query.account_id) q.where('p.account_id', query.account_id);
  else await whereReadable(ctx, q, 'p.account_id', 'payment:basic:read');
  for (const column of ['status', 'currency', 'plan_id', 'product_id', 'membership_id', 'member_id', 'user_id'] as const) {
    if (query[column] !== undefined) q.where(`p.${column}`, query[column]);
  }
  if (query.billing_reason === 'subscription_cycle') {
    // Renewals recorded as subscription_update are cycles too.
    q.whereIn('p.billing_reason', ['subscription_cycle', 'subscription_update']);
  } else if (query.billing_reason) {
    q.where('p.billing_reason', query.billing_reason);
  }
  if (query.created_after) q.where('p.created_at', '>', query.created_after);
  if (query.created_before) q.where('p.created_at', '<', query.created_before);
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
