// A plain transition's options (its state machine and move) and a plain action's checks.
import type { ApiSpec, OperationSpec, PlainSpec } from '../spec-types.js';
import { targetOf, type StoredModel } from './stored-resources.js';
import { tsLiteral as literal } from './ts-literal.js';
import type { Problem } from './plain-shared.js';

/**
 * A transition names a state machine declared for the resource it answers and one of that machine's transitions; the
 * machine's field and the stamped timestamps are columns of the resource's table.
 */
export function transitionOptions(spec: ApiSpec, op: OperationSpec, plain: PlainSpec, resource: StoredModel, problem: Problem): [string, string][] {
  const named = resource.name;
  if (!plain.machine || !plain.transition) {
    problem(['plain'], 'is a plain transition; it needs machine (a state machine) and transition (one of its transitions)', true);
    return [];
  }
  const machine = spec.state_machines[plain.machine];
  if (!machine) {
    problem(['plain', 'machine'], `names ${plain.machine}, which no area declares under state_machines (${Object.keys(spec.state_machines).sort().join(', ')})`);
    return [];
  }
  if (plain.machine !== named) problem(['plain', 'machine'], `names ${plain.machine}, the lifecycle of ${plain.machine}; the operation answers ${named}`);
  if (!machine.transitions[plain.transition]) {
    problem(['plain', 'transition'], `names ${plain.transition}, which ${plain.machine} does not declare (${Object.keys(machine.transitions).join(', ')})`);
  }
  const state = targetOf(resource, machine.field);
  if (typeof state === 'string' || !state.column) problem(['plain', 'machine'], `names ${plain.machine}, whose field ${machine.field} is not a column of ${resource.table}`);
  const stamps: string[] = [];
  (plain.stamp ?? []).forEach((field, i) => {
    const target = targetOf(resource, field);
    const type = resource.resource.fields[field]?.type;
    if ((type && type !== 'timestamp') || typeof target === 'string' || !target.column) {
      problem(['plain', 'stamp', i], `names ${field}, which is neither a timestamp column field of ${named} nor a column of ${resource.table}`);
    } else stamps.push(target.column);
  });
  if (op.body && !plain.hook) {
    for (const field of Object.keys(op.body)) problem(['body', field], 'is not taken by a plain transition without a hook (plain.hook)', true);
  }
  if (!plain.fill) {
    for (const param of Object.keys(op.query)) problem(['query', param], 'is not taken by a plain transition: only a fill takes query parameters (plain.fill.query)', true);
  }
  const column = typeof state === 'string' ? '' : state.column ?? '';
  return [
    ['machine', literal(plain.machine)], ['action', literal(plain.transition)], ['table', literal(resource.table)],
    ['column', literal(column)], ['stamps', literal(stamps)], ['sameStateUnchanged', literal(plain.same_state === 'unchanged')],
  ];
}

/** An action's rule is all in its hook, which takes the body; a query parameter is only a fill's. */
export function checkAction(op: OperationSpec, plain: PlainSpec, problem: Problem): void {
  if (!plain.hook) problem(['plain'], 'is a plain action; it needs a hook (plain.hook): the rule it carries out on the row', true);
  if (!plain.fill) {
    for (const param of Object.keys(op.query)) problem(['query', param], 'is not taken by a plain action: only a fill takes query parameters (plain.fill.query)', true);
  }
}
