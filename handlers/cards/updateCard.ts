// Written by hand, not a plain transition: PATCH: a move, if any, is chosen by the body among field changes.
import type { Handler } from '../../generated/handler.js';
import { ApiError, invalid } from '../../runtime/errors.js';
import { loadOwned } from '../../runtime/ownership.js';
import { transition } from '../../generated/state-machine.js';
import { nowMs } from '../shared/now.js';
import { resources } from '../../generated/resources.js';
import type { EventType, StateAction } from '../../generated/spec-data.js';

type Action = StateAction<'Card'>;

/** Which lifecycle move the body asks for, if any; a move to where the card already is asks for none. */
function actionOf(status: string, body: { frozen?: boolean; canceled?: boolean }): Action | null {
  if (body.canceled === false) throw invalid('A card cannot be uncanceled: canceled takes only true', 'canceled');
  if (body.canceled && body.frozen !== undefined) throw invalid('Send canceled or frozen, not both', 'frozen');
  if (body.canceled) return status === 'canceled' ? null : 'cancel';
  if (body.frozen === true) return status === 'frozen' ? null : 'freeze';
  if (body.frozen === false) return status === 'active' ? null : 'unfreeze';
  return null;
}

const EVENTS: Record<Action, EventType> = { freeze: 'card.frozen', unfreeze: 'card.unfrozen', cancel: 'card.canceled' };

/** PATCH /cards/{id}: freeze, unfreeze, cancel (final) or rename, with the card locked. */
export const updateCard: Handler<'updateCard'> = async ({ path, body }, ctx) => {
  const card = await loadOwned(ctx, resources.Card, path.id, ['card:manage'], { forUpdate: true });
  const input = body ?? {};
  const action = actionOf(card.status, input);
  const rename = input.name !== undefined && input.name !== card.name;
  if (card.status === 'canceled' && rename) {
    throw new ApiError(400, 'invalid_state', `The card ${card.id} is canceled; it cannot be changed`, 'status');
  }
  if (!action && !rename) return resources.Card.view(card);
  const status = action ? transition('Card', card.status, action) : card.status;
  const [row] = await ctx.db('cards').where({ id: card.id }).update({
    status, ...(rename ? { name: input.name } : {}), ...(action === 'cancel' ? { canceled_at: nowMs(ctx.db) } : {}),
    updated_at: nowMs(ctx.db),
  }).returning('*');
  const view = resources.Card.view(row);
  await ctx.emit(action ? EVENTS[action] : 'card.updated', card.account_id, view);
  return view;
};
