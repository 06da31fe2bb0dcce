import type { Handler } from '../../runtime/handler.js';
import { loadOwned } from '../products/catalogue-access.js';
import { nowMs } from '../shared/now.js';
import { checkoutConfigurationView } from './checkout-configuration-view.js';

/** DELETE /checkout_configurations/{id}: a soft delete; the link stops working and the id is a 404 afterwards. */
export const deleteCheckoutConfiguration: Handler<'deleteCheckoutConfiguration'> = async ({ path }, ctx) => {
  const row = await loadOwned(ctx, 'checkout_configurations', 'checkout configuration', path.id,
    'checkout_configuration:delete', { softDeleted: true, forUpdate: true });
  await ctx.db('checkout_configurations').where({ id: row.id }).update({ deleted_at: nowMs(ctx.db), updated_at: nowMs(ctx.db) });
  await ctx.emit('checkout_configuration.deleted', row.account_id, checkoutConfigurationView(row));
  return { id: row.id, deleted: true };
};
