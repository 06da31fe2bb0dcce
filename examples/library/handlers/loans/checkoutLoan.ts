import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { newId } from '../../../../runtime/ids.js';
import { conflict, notFound } from '../../../../runtime/errors.js';
import { readView } from '../../../../runtime/plain/stored-resource.js';

const DAYS = { one_week: 7, two_weeks: 14, four_weeks: 28 } as const;

/** The day `days` after today, UTC, as YYYY-MM-DD. */
const dueDate = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** POST /loans: a book of the library, not on loan already (the unique index of open loans decides a race). */
export const checkoutLoan: Handler<'checkoutLoan'> = async ({ body }, ctx) => {
  const book = await ctx.db('books').where({ id: body.book_id, account_id: body.account_id }).first('id');
  if (!book) throw notFound('book', body.book_id, 'book_id');
  const onLoan = await ctx.db('loans').where({ book_id: body.book_id }).whereNot({ status: 'returned' }).first('id');
  if (onLoan) throw conflict(`The book ${body.book_id} is on loan (${onLoan.id}); return it first`, 'book_id');
  const id = newId('loan_');
  await ctx.db('loans').insert({
    id, account_id: body.account_id, book_id: body.book_id, borrower: body.borrower, status: 'checked_out', due_date: dueDate(DAYS[body.period]),
  });
  const view = await readView(ctx.db, resources.Loan, id);
  await ctx.emit('loan.checked_out', body.account_id, view);
  return view;
};
