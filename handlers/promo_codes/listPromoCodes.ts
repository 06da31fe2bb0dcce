import type { Handler } from '../../runtime/handler.js';
import { whereEqual } from '../../runtime/filters.js';
import { paginate } from '../../runtime/pagination.js';
import type { Row } from '../products/catalogue-access.js';
import { promoCodeView } from './promo-code-view.js';

/** What each `order` sorts on, and what its cursors hold (keyset pagination on (key, id)). */
const ORDERS = {
  created_at: { sortKind: 'timestamp', sortValue: (r: Row) => r.created_at as string },
  code: { sortKind: 'text', sortValue: (r: Row) => r.code as string },
  redemptions: { sortKind: 'integer', sortValue: (r: Row) => Number(r.redemptions) },
} as const;

/** GET /promo_codes: one account's codes (the runtime has checked promo_code:basic:read on it). */
export const listPromoCodes: Handler<'listPromoCodes'> = async ({ query }, ctx) => {
  const q = ctx.db('promo_codes').where({ account_id: query.account_id });
  if (query.status) q.where('status', query.status);
  whereEqual(q, query, { product_id: 'product_id', product_ids: 'product_id', plan_id: 'plan_id', plan_ids: 'plan_id' });
  if (query.created_after) q.where('created_at', '>', query.created_after);
  if (query.created_before) q.where('created_at', '<', query.created_before);
  const order = ORDERS[query.order];
  const { rows, page_info } = await paginate<Row & { id: string }>(q, query, {
    defaultSize: ctx.defaultPageSize, direction: query.direction, sortColumn: query.order,
    sortKind: order.sortKind, sortValue: order.sortValue,
  });
  return { data: rows.map(promoCodeView), page_info };
};
