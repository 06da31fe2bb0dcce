// ResolutionCenterCase fields only code can say (spec/areas/resolution_center_cases.yaml table.columns).
import type { ResolutionCenterCase } from '../../generated/types.js';
import { canTransition } from '../../generated/state-machine.js';
import type { ResolutionCenterCaseRow } from '../../generated/rows.js';

type Action = ResolutionCenterCase['available_actions'][number];
const MERCHANT_ACTIONS: Action[] = ['respond', 'refund', 'escalate', 'close'];

/** What the merchant may do now: each action is a move of the state machine (state_machines.ResolutionCenterCase)
 * of the same name, and the path POST /resolution_center_cases/{id}/<action>; the list is the moves its status
 * allows, so it can never offer what the action would refuse for the status. */
export const availableActions = (row: Pick<ResolutionCenterCaseRow, 'status'>): Action[] =>
  MERCHANT_ACTIONS.filter((a) => canTransition('ResolutionCenterCase', row.status, a));
