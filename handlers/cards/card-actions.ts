// The rule of PATCH /cards/{id} (a plain action, spec/areas/cards.yaml): the runtime finds and locks the card
// (card:manage) and answers it as it then is. The body chooses a lifecycle move among its field changes, so this is
// no declared transition: the move, if any, is checked by the state machine here.
import type { ActionHook } from '../../generated/plain-hooks.js';
import { ApiError, invalid } from '../../runtime/errors.js';
import { transition } from '../../generated/state-machine.js';
import { nowMs } from '../shared/now.js';
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

/** freeze, unfreeze, cancel (final) or rename; nothing to change writes and emits nothing. */
export const updateCardFields: ActionHook<'updateCard'> = async (card, { body }, ctx) => {
  const input = body ?? {};
  const action = actionOf(card.status, input);
  const rename = input.name !== undefined && input.name !== card.name;
  if (card.status === 'canceled' && rename) {
    throw new ApiError(400, 'invalid_state', `The card ${card.id} is canceled; it cannot be changed`, 'status');
  }
  if (!action && !rename) return;
  const status = action ? transition('Card', card.status, action) : card.status;
  await ctx.db('cards').where({ id: card.id }).update({
    status, ...(rename ? { name: input.name } : {}), ...(action === 'cancel' ? { canceled_at: nowMs(ctx.db) } : {}),
    updated_at: nowMs(ctx.db),
  });
  return { after: (view) => ctx.emit(action ? EVENTS[action] : 'card.updated', card.account_id, view) };
};
