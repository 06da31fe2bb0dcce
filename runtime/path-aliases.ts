// Path parameters that a caller may give by another name (spec: `aliases` on a path parameter): `me`, the user behind
// the credential, and a unique column of a table (a username for a user id). They are turned into the row's id
// before the handler runs, so that every operation taking the parameter resolves them alike and handlers only ever
// see ids. A value carrying the id's prefix is taken as an id, without a statement; a name that matches no row is
// passed on as it came, and the handler's lookup answers 404 naming what the caller sent.
import type { Knex } from 'knex';
import { invalid } from './errors.js';
import type { Principal } from './principal.js';

export interface PathAlias {
  /** `me` is the id of the user behind the credential (a user token) */
  me?: boolean;
  /** a value without `prefix` is looked up in `table` by `column` */
  lookup?: { table: string; column: string; ignore_case?: boolean };
  /** the prefix of the ids the parameter takes (with a lookup) */
  prefix?: string;
}

/** Replaces, in `path`, each aliased parameter's other name with the id it names. */
export async function resolvePathAliases(aliases: Record<string, PathAlias>, path: Record<string, string>, db: Knex,
  principal: Principal): Promise<void> {
  for (const [name, alias] of Object.entries(aliases)) {
    const value = path[name];
    if (typeof value !== 'string') continue;
    if (alias.me && value === 'me') {
      if (!principal.userId) throw invalid(`${name} 'me' names the user behind a user token; this credential has no user: give a user id or username`, name);
      path[name] = principal.userId;
      continue;
    }
    const lookup = alias.lookup;
    if (!lookup || (alias.prefix && value.startsWith(alias.prefix))) continue;
    const rows = db(lookup.table);
    const found = await (lookup.ignore_case
      // An exact match wins over one differing only in case.
      ? rows.whereRaw('lower(??) = lower(?)', [lookup.column, value]).orderByRaw('?? = ? desc', [lookup.column, value])
      : rows.where(lookup.column, value)).first('id');
    if (found) path[name] = found.id;
  }
}
