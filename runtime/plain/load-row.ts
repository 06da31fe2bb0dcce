// The one row a plain retrieve, transition, action or delete works on: found by the operation's declared finder
// (plain.find) when it has one; else by id, reached through its owner column (plain.owner: ./row-owner.ts) or under
// the scopes and `own` (./own-rows.ts).
import type { HandlerContext } from '../handler.js';
import type { Finder } from './hooks.js';
import { loadOwnedOrOwn, type OwnRowsSpec } from './own-rows.js';
import { loadByOwner, type RowOwnerSpec } from './row-owner.js';
import type { Row, RowRead, StoredResource } from './stored-resource.js';

export interface RowRules {
  scopes: readonly string[];
  own?: OwnRowsSpec;
  owner?: RowOwnerSpec;
  find?: Finder;
}

/** `read`: as ./stored-resource.ts readRow says (a declared finder is told only whether to lock). */
export function loadPlainRow(ctx: HandlerContext, resource: StoredResource<unknown>, id: string, rules: RowRules,
  read: RowRead = 'row'): Promise<Row> {
  if (rules.find) return rules.find(ctx, id, { scopes: rules.scopes, lock: read === 'lock' });
  if (rules.owner) return loadByOwner(ctx, resource, id, rules.scopes, rules.owner, read);
  return loadOwnedOrOwn(ctx, resource, id, rules.scopes, rules.own, read);
}
