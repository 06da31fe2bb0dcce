// A stored resource (a resource whose spec names its `table:`), as the generator describes it in
// generated/resources.ts: the one statement reading it with its relations, and its view (row -> resource).
import type { Knex } from 'knex';
import { hiddenFieldsShown, query } from '../request-db.js';

export type Row = Record<string, any> & { id: string; account_id: string };

/** `R`: the row its statement reads (generated/rows.ts types each resource's). Left out, any resource's: the
 * runtime's plain operations take every resource, and read its rows as Row. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface StoredResource<View, R extends { id: string } = any> {
  name: string;
  /** how messages name one: "No such <noun>" */
  noun: string;
  table: string;
  /** the select list and from clause (joins included) of the statement reading it */
  columns: string;
  from: string;
  /** what a row that exists meets (soft-deleted rows do not), or null */
  live: string | null;
  /** the whole statement for one live row by id ($1), and the same locking the table's row */
  byId: string;
  byIdForUpdate: string;
  /** one live row by id with only what the view reads (the generator emits it when it can tell): for a read that
   * renders the row and does nothing else with it; fewer columns to send and parse */
  viewById?: string;
  /** the select list of viewById: what a list whose rows are only rendered reads (selectRows with `view`) */
  viewSelect?: string;
  /** the table's own columns viewById reads (a rule reading another one needs byId) */
  viewColumns?: readonly string[];
  /** the view reads only the table's own columns, so a row from `insert/update ... returning *` will do */
  bareRows: boolean;
  view(row: R): View;
  /** fields the head hides (field_hidden), read apart: each its select list over the table's row and its reader;
   * runtime/plain/hidden-fields.ts fills them for callers of versions that show them; `columns`: what its select list
   * names in the row, by which a row read with them is known */
  hidden?: Record<string, { select: string; columns: readonly string[]; read(row: Row): unknown }>;
}

/** How a row is read: whole (`row`); whole and locked for the rest of the request's transaction (`lock`: its
 * callers write from it); or only rendered by the resource's view and its owner checked (`view`: it then holds what
 * they read, StoredResource.viewById, when the generator could tell; else the whole row). */
export type RowRead = 'row' | 'lock' | 'view';

/** Whether a read may take only what the view reads (viewById, viewSelect): the generator could tell what that is,
 * and it holds `columns` too, the table's own columns the caller reads from the rows besides the view (undefined: one
 * that is not the table's own, which it cannot hold). */
export function viewReadHolds(resource: StoredResource<unknown>, columns: readonly (string | undefined)[]): boolean {
  const viewed = resource.viewColumns;
  return resource.viewById !== undefined && viewed !== undefined && columns.every((c) => c !== undefined && viewed.includes(c));
}

/** One live row by id with its relations, in one statement. */
export async function readRow<R extends { id: string }>(db: Knex, resource: StoredResource<unknown, R>, id: string,
  read: RowRead = 'row'): Promise<R | undefined> {
  const statement = read === 'lock' ? resource.byIdForUpdate : read === 'view' ? resource.viewById ?? resource.byId : resource.byId;
  const [row] = await query<R>(db, statement, [id]);
  return row;
}

/** The resource as it is now (after a write): its row read again, viewed. */
export async function readView<View, R extends { id: string }>(db: Knex, resource: StoredResource<View, R>, id: string): Promise<View> {
  const row = await readRow(db, resource, id);
  if (!row) throw new Error(`${resource.name} ${id} vanished after it was written`);
  return resource.view(row);
}

/** A builder over the resource's statement (live rows only), for lists to narrow, filter and page. With `view`, the
 * rows hold only what the view reads (viewSelect, when the generator could tell): for a list that renders its rows
 * and reads nothing else of them but columns among viewColumns (its sort and id columns, for the cursor). */
export function selectRows(db: Knex, resource: StoredResource<unknown, { id: string }>, read: 'row' | 'view' = 'row'): Knex.QueryBuilder {
  let select = read === 'view' ? resource.viewSelect ?? resource.columns : resource.columns;
  // A view for a version that shows fields the head hides reads them with its row (hidden-fields.ts fillHidden).
  const shown = read === 'view' && resource.hidden ? hiddenFieldsShown(db, resource.name) : undefined;
  if (shown) select = [select, ...shown.map((f) => resource.hidden![f].select)].join(', ');
  const q = db.queryBuilder().select(db.raw(select)).fromRaw(resource.from);
  if (resource.live) q.whereRaw(resource.live);
  return q;
}
