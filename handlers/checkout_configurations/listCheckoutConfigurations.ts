import type { Handler } from '../../runtime/handler.js';
import { paginate } from '../../runtime/pagination.js';
import type { Row } from '../products/catalogue-access.js';
import { checkoutConfigurationView } from './checkout-configuration-view.js';

/** GET /checkout_configurations: one account's (checked by the runtime) or every readable account's; never deleted. */
export const listCheckoutConfigurations: Handler<'listCheckoutConfigurations'> = async ({ query }, ctx) => {
  const q = ctx.db('checkout_configurations').whereNull('deleted_at');
  if (query.account_id) q.where('account_id', query.account_id);
  else await ctx.access.whereHolds(q, 'account_id', 'checkout_configuration:basic:read');
  if (query.plan_id) q.where('plan_id', query.plan_id);
  if (query.mode) q.where('mode', query.mode);
  if (query.created_after) q.where('created_at', '>', query.created_after);
  if (query.created_before) q.where('created_at', '<', query.created_before);
  const { rows, page_info } = await paginate<Row & { id: string }>(q, query, {
    defaultSize: ctx.defaultPageSize, direction: query.direction,
  });
  return { data: rows.map(checkoutConfigurationView), page_info };
};
