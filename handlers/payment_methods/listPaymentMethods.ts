import type { Handler } from '../../runtime/handler.js';
import { paginate } from '../../runtime/pagination.js';
import { whereReadable } from '../payments/readable-accounts.js';
import { paymentMethodView } from './payment-method-view.js';

/** GET /payment_methods: saved methods of one account (checked by the runtime) or of every readable one. */
export const listPaymentMethods: Handler<'listPaymentMethods'> = async ({ query }, ctx) => {
  const q = ctx.db('payment_methods');
  if (query.account_id) q.where({ account_id: query.account_id });
  else await whereReadable(ctx, q, 'account_id', 'payment:basic:read');
  if (query.member_id) q.where({ member_id: query.member_id });
  const { rows, page_info } = await paginate<Record<string, any> & { id: string }>(q, query, { defaultSize: ctx.defaultPageSize });
  return { data: rows.map(paymentMethodView), page_info };
};
