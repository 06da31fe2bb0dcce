import type { Handler } from '../../generated/handler.js';
import { forbidden } from '../../runtime/errors.js';
import { paginate } from '../../runtime/pagination.js';
import { selectRows, type Row } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { exportable } from './exportable.js';

/** GET /exports: the account's exports of the resources whose export scope the caller holds there (the runtime has
 * checked that the account is visible). */
export const listExports: Handler<'listExports'> = async ({ query }, ctx) => {
  const held = await ctx.access.scopesOn(query.account_id);
  const readable = Object.entries(exportable).filter(([, e]) => held?.has(e.scope)).map(([name]) => name);
  if (readable.length === 0) throw forbidden(`This credential holds no export scope on ${query.account_id}`);
  const q = selectRows(ctx.db, resources.Export).where('exports.account_id', query.account_id).whereIn('exports.resource', readable);
  if (query.resource) q.where('exports.resource', query.resource);
  if (query.status) q.where('exports.status', query.status);
  const { rows, page_info } = await paginate<Row>(q, query, {
    sortColumn: 'exports.created_at', idColumn: 'exports.id', direction: 'desc', defaultSize: ctx.defaultPageSize,
  });
  return { data: rows.map((row) => resources.Export.view(row)), page_info };
};
