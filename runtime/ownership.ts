// Objects belong to accounts. Objects of accounts the caller cannot see do not exist for it (404, never leaked);
// visible ones need the operation's scopes on their account (403). Declared (plain) operations and handlers both
// load their objects through here, and lists narrow to the accounts where the scope is held.
import type { Knex } from 'knex';
import { ApiError, forbidden, notFound } from './errors.js';
import type { Access } from './access.js';
import type { HandlerContext } from './handler.js';
import { readRow, type Row, type RowRead, type StoredResource } from './plain/stored-resource.js';
import type { Leading } from './pagination.js';
import { holdColumn } from './index-catalog.js';

/** A row of the caller's own (a buyer's membership, a user's own team membership) and what that gives it. */
export interface OwnRows<R> {
  isOwn(row: R): boolean;
  /** 'pass': the caller's own rows need no scope on their account; else the error the caller gets for its own row
   * on an account it cannot see, instead of a 404 (it knows the row exists), made only when it is raised (an
   * error captures a stack trace, which a read that succeeds should not pay for) */
  own: 'pass' | (() => ApiError);
}

/** What a 404 names: "No such <noun>: '<id>'", with `param` (default id). */
export interface Wanted {
  noun: string;
  id: string;
  param?: string;
}

/** The row, if the caller may act on it with `scopes`: 404 when there is none or its account is invisible, 403 when
 * a scope is missing there. */
export async function requireOwned<R extends { account_id: string }>(access: Access, row: R | undefined,
  scopes: readonly string[], wanted: Wanted, ownRows?: OwnRows<R>): Promise<R> {
  const own = row !== undefined && ownRows?.isOwn(row);
  if (own && ownRows!.own === 'pass') return row!;
  const held = row ? await access.scopesOn(row.account_id) : null;
  if (!row || !held) {
    if (own) throw (ownRows!.own as () => ApiError)();
    throw notFound(wanted.noun, wanted.id, wanted.param ?? 'id');
  }
  const missing = scopes.filter((s) => !held.has(s));
  if (missing.length) throw forbidden(`This credential lacks the ${missing.join(', ')} permission on ${row.account_id}`);
  return row;
}

export interface LoadOptions<R> {
  /** how the row is read (./plain/stored-resource.ts RowRead): `lock` for writes; with `view`, `ownRows` may read
   * only columns the view reads too */
  read?: RowRead;
  ownRows?: OwnRows<R>;
}

/** A stored resource's row by id, read with its relations in one statement, after requireOwned. Soft-deleted rows
 * are 404. */
export async function loadOwned<R extends { id: string; account_id: string } = Row>(ctx: HandlerContext,
  resource: StoredResource<unknown, R>, id: string, scopes: readonly string[], options: LoadOptions<R> = {}): Promise<R> {
  const row = await readRow(ctx.db, resource, id, options.read);
  return requireOwned(ctx.access, row, scopes, { noun: resource.noun, id }, options.ownRows);
}

/**
 * Narrows a list over `column` (an account id column) to the account the caller named (the runtime has checked the
 * operation's scopes on it: `account: query.account_id`), or else to every account on which it holds `scope`.
 * With `heldNowhere`, a user token holding the scope on no account is refused (403, with that message) rather than
 * given an empty list.
 */
export async function whereOwned(access: Access, q: Knex.QueryBuilder, column: string, scope: string,
  accountId: string | undefined, heldNowhere?: string): Promise<void> {
  if (accountId !== undefined) {
    q.where(column, accountId);
    return;
  }
  const granting = await access.whereHolds(q, column, scope);
  if (granting === 0 && heldNowhere && access.principal.kind === 'user_token') throw forbidden(heldNowhere);
}

/**
 * whereOwned for a list paged by `paginate` over `sortColumn`: the account named leads the page (pagination.ts
 * Leading) when an index holds the account column and then the sort key (index-catalog.ts), so that the page reads
 * about a page of that index whatever other accounts hold; without such an index, without an account named, or
 * without a sort column to lead (a walked list: its walk's index holds the account), as whereOwned. Both columns are
 * `table.column` of the listed table.
 */
export async function ownedPage(ctx: Pick<HandlerContext, 'access' | 'db'>, q: Knex.QueryBuilder, column: string,
  sortColumn: string | undefined, scope: string, accountId: string | undefined, heldNowhere?: string): Promise<Leading | undefined> {
  if (accountId !== undefined) return holdColumn(ctx.db, q, column, sortColumn, accountId);
  await whereOwned(ctx.access, q, column, scope, undefined, heldNowhere);
  return undefined;
}
