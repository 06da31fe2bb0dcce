import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { transition } from '../../generated/state-machine.js';
import { loadOwned } from '../../../../runtime/ownership.js';
import { readView } from '../../../../runtime/plain/stored-resource.js';

/** POST /loans/{id}/return: the state machine says from which states a loan can be returned. */
export const returnLoan: Handler<'returnLoan'> = async ({ path }, ctx) => {
  const loan = await loadOwned(ctx, resources.Loan, path.id, ['loan:write'], { read: 'lock' });
  const status = transition('Loan', loan.status, 'return');
  await ctx.db('loans').where({ id: loan.id }).update({ status, returned_at: ctx.db.raw("date_trunc('milliseconds', now())") });
  const view = await readView(ctx.db, resources.Loan, loan.id);
  await ctx.emit('loan.returned', loan.account_id, view);
  return view;
};
