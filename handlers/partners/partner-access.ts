// A partner reads only the partner businesses it referred: anyone else's is a 404, never leaked.
import type { HandlerContext } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { pageWindow } from '../../runtime/pagination.js';
import { readRow, selectRows, type Row } from '../../runtime/plain/stored-resource.js';
import type { StoredResource } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';

export async function ownPartnerBusiness(ctx: HandlerContext, id: string): Promise<Row> {
  const row = await readRow(ctx.db, resources.PartnerBusiness, id);
  if (!row || row.partner_user_id !== ctx.principal.userId) throw notFound('partner business', id, 'id');
  return row;
}

interface PageArgs { first?: number; last?: number; after?: string; before?: string }

/** A newest-first keyset page of a resource's rows narrowed by `where` (column -> value). */
export async function pageOf<V>(ctx: HandlerContext, resource: StoredResource<V>, table: string, where: Record<string, unknown>, args: PageArgs) {
  const window = pageWindow<Row>(args, { defaultSize: ctx.defaultPageSize, sortColumn: `${table}.created_at`, idColumn: `${table}.id` });
  const q = selectRows(ctx.db, resource);
  for (const [column, value] of Object.entries(where)) if (value !== undefined) q.where(`${table}.${column}`, value as string);
  for (const w of window.where) q.whereRaw(w.sql, w.bindings);
  const rows = await q.orderByRaw(`${table}.created_at ${window.order}, ${table}.id ${window.order}`).limit(window.limit);
  const page = window.finish(rows);
  return { data: page.rows.map((r) => resource.view(r)), page_info: page.page_info };
}
