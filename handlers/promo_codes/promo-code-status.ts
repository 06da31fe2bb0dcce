// Status moves of a promo code, as spec/areas/promo_codes.yaml's state machine allows them.
import type { PromoCode } from '../../generated/types.js';
import type { HandlerContext } from '../../generated/handler.js';
import { transition } from '../../generated/state-machine.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';

export async function moveStatus(ctx: HandlerContext, id: string, action: 'activate' | 'deactivate' | 'archive'): Promise<PromoCode> {
  const row = await loadOwned(ctx, resources.PromoCode, id, ['promo_code:update'], { forUpdate: true });
  const status = transition('PromoCode', row.status, action);
  // Moving to the state it is already in is a no-op: nothing written, no event.
  if (status === row.status) return resources.PromoCode.view(row);
  const [updated] = await ctx.db('promo_codes').where({ id: row.id })
    .update({ status, updated_at: nowMs(ctx.db) }).returning('*');
  const view = resources.PromoCode.view(updated);
  await ctx.emit('promo_code.updated', row.account_id, view);
  return view;
}
