import type { Handler } from '../../generated/handler.js';
import { requireOwned } from '../../runtime/ownership.js';
import { readRow } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { exportScope } from './exportable.js';

/** GET /exports/{id}: needs the export scope of the export's resource on its account. */
export const retrieveExport: Handler<'retrieveExport'> = async ({ path }, ctx) => {
  const row = await readRow(ctx.db, resources.Export, path.id);
  const scopes = row ? [exportScope(row.resource)] : [];
  return resources.Export.view(await requireOwned(ctx.access, row, scopes, { noun: 'export', id: path.id }));
};
