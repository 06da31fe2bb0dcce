// The one row a plain retrieve, transition, action or delete works on: found by the operation's declared finder
// (plain.find) when it has one; else by id, reached through its owner column (plain.owner: ./row-owner.ts) or under
// the scopes and `own` (./own-rows.ts).
import type { HandlerContext } from '../handler.js';
import type { Finder } from './hooks.js';
import { loadOwnedOrOwn, type OwnRowsSpec } from './own-rows.js';
import { loadByOwner, type RowOwnerSpec } from './row-owner.js';
import type { Row, StoredResource } from './stored-resource.js';

export interface RowRules {
  scopes: readonly string[];
  own?: OwnRowsSpec;
  owner?: RowOwnerSpec;
  find?: Finder;
}

/** `forView`: the row is only rendered (a retrieve without hook or fill: ./retrieve.ts), read for the view alone. */
export function loadPlainRow(ctx: HandlerContext, resource: StoredResource<unknown>, id: string, rules: RowRules,
  lock = false, forView = false): Promise<Row> {
  if (rules.find) return rules.find(ctx, id, { scopes: rules.scopes, lock });
  if (rules.owner) return loadByOwner(ctx, resource, id, rules.scopes, rules.owner, lock, forView);
  return loadOwnedOrOwn(ctx, resource, id, rules.scopes, rules.own, lock, forView);
}
