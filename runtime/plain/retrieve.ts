// A plain retrieve: the resource by path id, in one statement with its relations, if the caller may see it; the fill
// (if declared) computes its fields.
import type { Operations } from '../../generated/types.js';
import type { Handler } from '../handler.js';
import { loadOwned } from '../ownership.js';
import type { Fill, RetrieveHook } from './hooks.js';
import type { StoredResource } from './stored-resource.js';

export interface PlainRetrieve<K extends keyof Operations> {
  scopes: readonly string[];
  hook?: RetrieveHook<K>;
  fill?: Fill<Operations[K]['output'], Operations[K]['input']['query']>;
}

export function plainRetrieve<K extends keyof Operations>(resource: StoredResource<Operations[K]['output']>,
  options: PlainRetrieve<K>): Handler<K> {
  return async (input, ctx) => {
    const fill = options.fill?.(input.query, ctx);
    const row = await loadOwned(ctx, resource, (input.path as { id: string }).id, options.scopes);
    await options.hook?.(row, input, ctx);
    const view = resource.view(row);
    await fill?.([view], [row]);
    return view;
  };
}
