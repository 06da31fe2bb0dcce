import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { newId } from '../../../../runtime/ids.js';
import { readView } from '../../../../runtime/plain/stored-resource.js';

/** POST /books: the runtime has checked that account_id is visible and book:write is held on it. */
export const createBook: Handler<'createBook'> = async ({ body }, ctx) => {
  const id = newId('book_');
  await ctx.db('books').insert({ id, account_id: body.account_id, title: body.title, author: body.author, isbn: body.isbn ?? null });
  return readView(ctx.db, resources.Book, id);
};
