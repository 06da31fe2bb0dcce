// A plain retrieve: the resource by path id, in one statement with its relations, if the caller may see it (or, with
// `own`, is the row's user: ./own-rows.ts; with `owner`, reaches its owner: ./row-owner.ts; or as its declared finder
// says: plain.find); the hook's rule on the row; the fill (if declared) computes its fields.
import type { Handler, OperationTypes } from '../handler.js';
import type { OwnRowsSpec } from './own-rows.js';
import type { RowOwnerSpec } from './row-owner.js';
import { loadPlainRow } from './load-row.js';
import type { Fill, Finder, RetrieveHook } from './hooks.js';
import { viewReadHolds, type StoredResource } from './stored-resource.js';

export interface PlainRetrieve<Op extends OperationTypes> {
  scopes: readonly string[];
  /** how the row's own user reaches it (plain.own) */
  own?: OwnRowsSpec;
  /** the row's owner, an account or a user, named by a column (plain.owner) */
  owner?: RowOwnerSpec;
  /** how the row is found, when code says it (plain.find) */
  find?: Finder;
  hook?: RetrieveHook<Op>;
  fill?: Fill<Op['output'], Op['input']['query']>;
}

/** Whether the retrieve does nothing with its row but check its owner and render it, with columns its view reads:
 * then the row is read for the view alone (StoredResource.viewById), fewer columns sent and parsed. */
function onlyViewed<Op extends OperationTypes>(resource: StoredResource<unknown>, options: PlainRetrieve<Op>): boolean {
  if (options.hook || options.fill || options.find) return false;
  return viewReadHolds(resource, [...(options.own ? [options.own.user] : []), ...(options.owner ? [options.owner.column.split('.').pop()!] : [])]);
}

export function plainRetrieve<Op extends OperationTypes>(resource: StoredResource<Op['output']>,
  options: PlainRetrieve<Op>): Handler<Op> {
  const read = onlyViewed(resource, options) ? 'view' : 'row';
  return async (input, ctx) => {
    const fill = options.fill?.(input.query, ctx);
    const id = (input.path as { id: string }).id;
    const row = await loadPlainRow(ctx, resource, id, options, read);
    await options.hook?.(row, input, ctx);
    const view = resource.view(row);
    await fill?.([view], [row]);
    return view;
  };
}
