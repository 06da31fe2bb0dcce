// Who may touch catalogue objects (products, variants, promo codes, checkout configurations): objects of accounts
// the credential cannot see do not exist for it (404); visible ones need the scope on their account (403).
import type { Knex } from 'knex';
import { forbidden, notFound } from '../../runtime/errors.js';
import type { HandlerContext } from '../../runtime/handler.js';
import { nowMs } from '../shared/now.js';

export type Row = Record<string, any>;

export interface LoadOptions {
  /** lock the row for the rest of the request's transaction (writes) */
  forUpdate?: boolean;
  /** the table soft-deletes through deleted_at; deleted rows are 404 */
  softDeleted?: boolean;
  /** narrows or extends the query (e.g. a join); defaults to the bare table */
  query?: (db: Knex) => Knex.QueryBuilder;
}

/** One object by id, after the visibility (404) and scope (403) checks on its account. */
export async function loadOwned(ctx: HandlerContext, table: string, what: string, id: string, scope: string,
  options: LoadOptions = {}): Promise<Row> {
  const q = (options.query ? options.query(ctx.db) : ctx.db(table)).where(`${table}.id`, id);
  if (options.softDeleted) q.whereNull(`${table}.deleted_at`);
  if (options.forUpdate) q.forUpdate(table);
  const row = await q.first();
  const held = row ? await ctx.access.scopesOn(row.account_id) : null;
  if (!row || !held) throw notFound(what, id, 'id');
  if (!held.has(scope)) throw forbidden(`This credential lacks the ${scope} permission on ${row.account_id}`);
  return row;
}

/** Keys sent with a null value are dropped on create. */
export function dropNulls(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(metadata ?? {}).filter(([, v]) => v !== null));
}

