// Lifecycles declared in spec/areas/*.yaml (state_machines) and enforced here, in one place: a handler asks for
// the state an action leads to, and an action not allowed from the current state is a 400 naming it.
import { ApiError } from './errors.js';
import { api } from './api-definition.js';

// Machines and actions are plain strings here; generated/state-machine.ts types them with the spec's names.

/** The state `action` moves a `machine` resource to from `current`, or a 400 `invalid_state`. */
export function transition(machine: string, current: string, action: string): string {
  const { field, transitions } = api().spec.stateMachines[machine];
  const t = transitions[action];
  if (!t.from.includes(current)) {
    const noun = machine.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
    throw new ApiError(400, 'invalid_state',
      `A ${noun} whose ${field} is ${current} cannot ${action.replace(/_/g, ' ')}; allowed from: ${t.from.join(', ')}`,
      field, { 'x-should-retry': 'false' });
  }
  return t.to;
}

/** Whether `action` is allowed from `current`, for listing available actions. */
export function canTransition(machine: string, current: string, action: string): boolean {
  return api().spec.stateMachines[machine].transitions[action].from.includes(current);
}
