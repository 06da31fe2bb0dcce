// Fields the head hides but older versions show (field_hidden in spec/versions/): a stored resource's statement
// leaves them out, so the head never pays for them; for a caller of a version that shows them, the objects a handler
// returned get them here, in one statement over the table's rows, before the response is rendered at that version.
import type { Knex } from 'knex';
import { api } from '../api-definition.js';
import { query, rowReadWithHidden, showHiddenFields } from '../request-db.js';
import type { Row, StoredResource } from './stored-resource.js';

const statements = new Map<string, string>();

/** The constant statement reading `fields` of the resource's rows by id ($1, an array). */
function statementFor(resource: StoredResource<unknown>, fields: readonly string[]): string {
  const key = `${resource.name}:${fields.join(',')}`;
  let text = statements.get(key);
  if (!text) {
    const T = `"${resource.table}"`;
    text = `select ${T}."id", ${fields.map((f) => resource.hidden![f].select).join(', ')} from ${T} where ${T}."id" = any($1)`;
    statements.set(key, text);
  }
  return text;
}

/** Sets `fields` on each object (a view of the resource, by its id): from the row the request already read with
 * them (selectRows selects them for a version that shows them), else in one statement for the rest. */
export async function fillHidden(db: Knex, resource: StoredResource<unknown>, fields: readonly string[], objects: unknown[]): Promise<void> {
  const views = objects.filter((o): o is Record<string, unknown> & { id: string } =>
    typeof o === 'object' && o !== null && typeof (o as { id?: unknown }).id === 'string');
  if (!views.length || !fields.length) return;
  const unread = views.filter((view) => {
    const row = rowReadWithHidden(db, resource.name, view.id);
    if (!row || !fields.every((f) => resource.hidden![f].columns.every((c) => c in row))) return true;
    for (const f of fields) view[f] = resource.hidden![f].read(row as Row);
    return false;
  });
  if (!unread.length) return;
  const rows = await query<Row>(db, statementFor(resource, fields), [[...new Set(unread.map((v) => v.id))]]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const view of unread) {
    const row = byId.get(view.id);
    if (row) for (const f of fields) view[f] = resource.hidden![f].read(row);
  }
}

/** Fills the hidden fields `version` shows of objects of `schema` (nothing when it shows none). */
export async function fillHiddenAt(db: Knex, schema: string, version: string, objects: unknown[]): Promise<void> {
  const { shownHidden, resources } = api();
  const fields = shownHidden[schema]?.[version];
  const resource = resources[schema];
  if (fields && resource) await fillHidden(db, resource, fields, objects);
}

/** Before the handler runs: the request's reads of `schema` (selectRows, for a view) select the hidden fields
 * `version` shows with their rows, so that fillHiddenAt finds them read (nothing when it shows none). */
export function selectHiddenAt(db: Knex, schema: string, version: string): void {
  const fields = api().shownHidden[schema]?.[version];
  if (fields && api().resources[schema]) showHiddenFields(db, schema, fields);
}
