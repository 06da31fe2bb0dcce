// A plain update: the row (locked) if the caller may act on it, the hook's checks, then one statement writing the
// fields sent (metadata merged key by key) with updated_at, only where something differs. Nothing differing writes
// nothing and records no event; otherwise the declared event carries the resource as it now is.
import type { Handler, OperationTypes } from '../handler.js';
import { mergeMetadata } from '../metadata.js';
import { loadOwned } from '../ownership.js';
import { query } from '../request-db.js';
import type { UpdateHook } from './hooks.js';
import { readView, type Row, type StoredResource } from './stored-resource.js';

export interface PlainUpdate<Op extends OperationTypes> {
  scopes: readonly string[];
  table: string;
  /** body field -> its column; `merge`: a metadata field, merged into the stored map */
  fields: Record<string, { column: string; merge: boolean }>;
  emits?: string;
  hook?: UpdateHook<Op>;
}

/** `update ... set <sent columns> where id = $1 and <one of them differs> returning *`, and its values. */
function statement(table: string, fields: PlainUpdate<OperationTypes>['fields'], row: Row, body: Record<string, unknown>): [string, unknown[]] | null {
  const values: unknown[] = [row.id];
  const columns: string[] = [];
  for (const [field, { column, merge }] of Object.entries(fields)) {
    const sent = body[field];
    if (sent === undefined) continue;
    values.push(merge ? JSON.stringify(mergeMetadata(row[column], sent as Record<string, never>)) : sent);
    columns.push(`"${column}"`);
  }
  if (columns.length === 0) return null;
  const set = columns.map((c, i) => `${c} = $${i + 2}`).join(', ');
  const differs = columns.map((c, i) => `${c} is distinct from $${i + 2}`).join(' or ');
  return [`update "${table}" set ${set}, "updated_at" = date_trunc('milliseconds', now()) where "id" = $1 and (${differs}) returning *`, values];
}

export function plainUpdate<Op extends OperationTypes>(resource: StoredResource<Op['output']>,
  options: PlainUpdate<Op>): Handler<Op> {
  return async (input, ctx) => {
    const row = await loadOwned(ctx, resource, (input.path as { id: string }).id, options.scopes, { read: 'lock' });
    const sent = input.body as NonNullable<Op['input']['body']>;
    const body = options.hook ? await options.hook(row, sent, ctx) : sent;
    const write = statement(options.table, options.fields, row, body as Record<string, unknown>);
    const [updated] = write ? await query<Row>(ctx.db, ...write) : [];
    if (!updated) return resource.view(row);
    const view = resource.bareRows ? resource.view(updated) : await readView(ctx.db, resource, row.id);
    if (options.emits) await ctx.emit(options.emits, row.account_id, view);
    return view;
  };
}
