// Loans past their due date become overdue: the Loan machine's become_overdue, for every checked_out loan at once,
// hourly and when the worker starts (compose.ts schedules it).
import type { Knex } from 'knex';
import type { TaskList } from 'graphile-worker';
import { api } from '../../../../runtime/api-definition.js';

export const MARK_OVERDUE_LOANS = 'mark_overdue_loans';

/** Moves every checked_out loan whose due date has passed (UTC) to overdue; returns how many moved. */
export async function markOverdueLoans(db: Knex): Promise<number> {
  const { from, to } = api().spec.stateMachines.Loan.transitions.become_overdue;
  return db('loans').whereIn('status', [...from]).where('due_date', '<', db.raw("(now() at time zone 'utc')::date")).update({ status: to });
}

export function loanTasks(db: Knex): TaskList {
  return { [MARK_OVERDUE_LOANS]: async () => { await markOverdueLoans(db); } };
}
