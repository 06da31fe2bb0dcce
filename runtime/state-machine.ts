// Lifecycles declared in spec/areas/*.yaml (state_machines) and enforced here, in one place: a handler asks for
// the state an action leads to, and an action not allowed from the current state is a 400 naming it.
import { ApiError } from './errors.js';
import { specData, type StateAction, type StateMachineName } from '../generated/spec-data.js';

interface Machine {
  field: string;
  transitions: Record<string, { from: readonly string[]; to: string }>;
}

const machines = specData.stateMachines as unknown as Record<string, Machine>;

/** The state `action` moves a `machine` resource to from `current`, or a 400 `invalid_state`. */
export function transition<M extends StateMachineName>(machine: M, current: string, action: StateAction<M>): string {
  const t = machines[machine].transitions[action];
  if (!t.from.includes(current)) {
    const noun = String(machine).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
    throw new ApiError(400, 'invalid_state',
      `A ${noun} whose ${machines[machine].field} is ${current} cannot ${action.replace(/_/g, ' ')}; allowed from: ${t.from.join(', ')}`,
      machines[machine].field, { 'x-should-retry': 'false' });
  }
  return t.to;
}

/** Whether `action` is allowed from `current`, for listing available actions. */
export function canTransition<M extends StateMachineName>(machine: M, current: string, action: StateAction<M>): boolean {
  return machines[machine].transitions[action].from.includes(current);
}
