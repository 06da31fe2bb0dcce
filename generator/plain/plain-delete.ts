// A plain delete's statements: the row's (soft, where the table soft-deletes) and its declared cascade.
import type { CascadeSpec } from '../spec-types.js';
import type { TableColumns } from '../emit-rows.js';
import { quoted, type StoredModel } from './stored-resources.js';
import type { Problem } from './plain-shared.js';

export function deleteStatement(resource: StoredModel): string {
  const soft = resource.resource.table!.soft_delete;
  const T = quoted(resource.table);
  if (!soft) return `delete from ${T} where "id" = $1`;
  return `update ${T} set ${quoted(soft)} = date_trunc('milliseconds', now()), "updated_at" = date_trunc('milliseconds', now()) where "id" = $1`;
}

/**
 * `cascade`: each names the rows of a table whose column holds the deleted row's id, deleted first ($1: that id). A
 * table a stored resource soft-deletes is soft-deleted (its live rows, updated_at too), as the row itself is; any other
 * is deleted. With migrations/tables.json the table and columns are checked; without it, the form only.
 */
export function cascadeStatements(cascade: CascadeSpec[], stored: Record<string, StoredModel>, tables: TableColumns | null,
  problem: Problem): string[] {
  return cascade.map(({ table, column }, i) => {
    const soft = Object.values(stored).find((s) => s.table === table && s.resource.table!.soft_delete)?.resource.table!.soft_delete;
    const columns = tables?.tables[table];
    if (tables && !columns) problem(['plain', 'cascade', i, 'table'], `names ${table}, which no migration creates (migrations/tables.json)`);
    else if (columns) {
      if (!(column in columns)) problem(['plain', 'cascade', i, 'column'], `names ${column}, which is not a column of ${table} (migrations/tables.json)`);
      for (const stamp of soft ? [soft, 'updated_at'] : []) {
        if (!(stamp in columns)) problem(['plain', 'cascade', i, 'table'], `names ${table}, which soft-deletes but has no ${stamp} column (migrations/tables.json)`);
      }
    }
    const T = quoted(table);
    if (!soft) return `delete from ${T} where ${quoted(column)} = $1`;
    const now = "date_trunc('milliseconds', now())";
    return `update ${T} set ${quoted(soft)} = ${now}, "updated_at" = ${now} where ${quoted(column)} = $1 and ${quoted(soft)} is null`;
  });
}
