import type { HandlerContext } from '../../generated/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import type { VariantRow } from '../../generated/rows.js';
import { resources } from '../../generated/resources.js';

/** A live variant by id (deleted ones, and those of deleted products, are 404), locked when it is to change. */
export const loadVariant = (ctx: HandlerContext, id: string, scope: 'plan:basic:read' | 'plan:update'): Promise<VariantRow> =>
  loadOwned(ctx, resources.Variant, id, [scope], { read: scope === 'plan:basic:read' ? 'row' : 'lock' });
