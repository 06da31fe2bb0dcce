import type { Handler } from '../../runtime/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { whereReadable } from '../payments/readable-accounts.js';
import { refundView } from './refund-view.js';

/** GET /refunds: one account's refunds (checked by the runtime) or those of every account readable. */
export const listRefunds: Handler<'listRefunds'> = async ({ query }, ctx) => {
  const q = ctx.db('refunds');
  if (query.account_id) q.where({ account_id: query.account_id });
  else await whereReadable(ctx, q, 'account_id', 'payment:basic:read');
  if (query.payment_id) q.where({ payment_id: query.payment_id });
  const { rows, page_info } = await paginate<Record<string, any> & { id: string }>(q, query, { defaultSize: ctx.defaultPageSize });
  return { data: rows.map(refundView), page_info };
};
