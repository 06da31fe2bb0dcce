import type { HandlerContext } from '../../runtime/handler.js';
import { loadOwned, type Row } from '../products/catalogue-access.js';

/** A live variant by id; deleted ones (and those of deleted products) are 404. */
export const loadVariant = (ctx: HandlerContext, id: string, scope: 'plan:basic:read' | 'plan:update' | 'plan:delete'): Promise<Row> =>
  loadOwned(ctx, 'plans', 'variant', id, scope, { softDeleted: true, forUpdate: scope !== 'plan:basic:read' });
