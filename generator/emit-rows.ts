// generated/rows.ts: the type of a row of every table, as pg hands it to the code, and of the row each stored
// resource's statement reads (its table's columns and those it selects beside them).
//
// The columns come from migrations/tables.json, what a database migrated with migrations/ holds (`npm run tables`
// writes it; a test fails when it is stale), not from the spec: the spec names only the columns its fields read,
// and `npm run generate` must run without a database. The spec then narrows what the database cannot say: a text
// column a field reads as an enum holds its values, a jsonb column a field reads holds that field's type.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FieldSpec } from './spec-types.js';
import type { SelectedColumn, StoredModel } from './plain/stored-resources.js';
import { tsType } from './emit-types.js';
import { tsString } from './plain/ts-literal.js';

/** table -> column -> its PostgreSQL type (`int8`, `text[]`), `?` after it when the column may be null; and which
 * of them are views (PostgreSQL says a view's every column may be null). bin/table-columns.ts writes it. */
export interface TableColumns {
  views: string[];
  tables: Record<string, Record<string, string>>;
}

export const TABLES_FILE = join('migrations', 'tables.json');

/** The project's migrations/tables.json, or null when it has none (its rows are then untyped). */
export function readTables(root: string): TableColumns | null {
  const file = join(root, TABLES_FILE);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as TableColumns : null;
}

/** What pg hands over for a PostgreSQL type, with runtime/db.ts's parsers (timestamptz: an ISO string; int8: a
 * number) and pg's own for the rest (numeric: a string, lest it lose digits; date and timestamp: a Date). */
function pgType(type: string): string {
  if (type.endsWith('[]')) {
    // Arrays are parsed element by element by pg's own parsers: runtime/db.ts's int8 parser is not theirs.
    const element = type.slice(0, -2) === 'int8' ? 'string' : pgType(type.slice(0, -2));
    return /[|&]/.test(element) ? `Array<${element}>` : `${element}[]`;
  }
  switch (type) {
    case 'text': case 'varchar': case 'bpchar': case 'uuid': case 'citext': case 'inet': case 'timestamptz': case 'numeric':
      return 'string';
    case 'int2': case 'int4': case 'int8': case 'float4': case 'float8': case 'oid':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'date': case 'timestamp':
      return 'Date';
    case 'bytea':
      return 'Buffer';
    default:
      return 'unknown';
  }
}

/** A generated type's names of generated/types.ts, reached through `T.` from rows.ts. */
const qualified = (type: string): string => type.replace(/(?<![.\w'"])([A-Z]\w*)(?=[\s;,|>)\[\]]|$)/g, 'T.$1');

/** What the spec says a column holds, when it says more than its PostgreSQL type. */
function narrowed(type: string, field: FieldSpec | null | undefined): string | null {
  if (!field) return null;
  const spec = qualified(tsType({ ...field, nullable: false }));
  if (type === 'jsonb' || type === 'json') return spec;
  if (type === 'text' && field.type === 'enum') return spec;
  if (type === 'text[]' && field.type === 'array' && field.items?.type === 'enum') return spec;
  return null;
}

const property = (key: string): string => (/^[a-z_][a-z0-9_]*$/i.test(key) ? key : tsString(key));
const orNull = (type: string, nullable: boolean): string => (nullable && type !== 'unknown' ? `${type} | null` : type);

/** The columns fields read as they are, by table: a column two resources of one table read as different types is
 * typed as the database has it. */
function fieldsByTable(models: StoredModel[]): Map<string, Record<string, FieldSpec | null>> {
  const out = new Map<string, Record<string, FieldSpec | null>>();
  for (const m of models) {
    const known = out.get(m.table) ?? {};
    for (const [column, f] of Object.entries(m.columnFields)) {
      known[column] = column in known && JSON.stringify(known[column]) !== JSON.stringify(f) ? null : f;
    }
    out.set(m.table, known);
  }
  return out;
}

/** A column's type. A view's column may be null as far as PostgreSQL knows: the field reading it says. */
function columnType(type: string, field: FieldSpec | null | undefined, view: boolean): string {
  const nullable = type.endsWith('?');
  const bare = nullable ? type.slice(0, -1) : type;
  return orNull(narrowed(bare, field) ?? pgType(bare), view && field ? field.nullable ?? false : nullable);
}

function tableType(columns: Record<string, string>, fields: Record<string, FieldSpec | null>, view: boolean): string {
  const lines = Object.entries(columns).map(([column, type]) => `    ${property(column)}: ${columnType(type, fields[column], view)};`);
  return `{\n${lines.join('\n')}\n  }`;
}

export const rowTypeName = (model: StoredModel): string => `${model.name}Row`;

/** The row each plain operation's hook gets (generated/plain-hooks.ts): its resource's. */
function plainRows(operations: { operation: string; resource: StoredModel }[]): string {
  const lines = operations.map(({ operation, resource }) => `  ${property(operation)}: ${rowTypeName(resource)};`);
  return `/** The row a plain operation's hook gets: its resource's (generated/plain-hooks.ts). */
export interface PlainRows {
${lines.join('\n')}
}
`;
}

/** `operations`: the plain operations, each with the stored resource it answers. */
export function emitRows(models: StoredModel[], columns: TableColumns | null,
  operations: { operation: string; resource: StoredModel }[] = []): string {
  const head = `// Generated by \`npm run generate\` from spec/. Do not edit.\n// The tables' columns: ${TABLES_FILE} (\`npm run tables\` writes it from a migrated database).`;
  if (!columns) {
    return `${head}
// This project has no ${TABLES_FILE}: its rows are untyped.
import type { Row } from '../runtime/plain/stored-resource.js';

${models.map((m) => `export type ${rowTypeName(m)} = Row;`).join('\n')}

${plainRows(operations)}`;
  }
  const { tables, views } = columns;
  for (const m of models) {
    if (!tables[m.table]) throw new Error(`resources.${m.name} is stored in ${m.table}, which ${TABLES_FILE} lacks; run \`npm run tables\``);
  }
  const fields = fieldsByTable(models);

  /** A column the statement selects beside the table's own. */
  function selectedType(selected: SelectedColumn): string {
    if ('join' in selected) {
      const type = tables[selected.join]?.[selected.column];
      if (type === undefined) throw new Error(`${TABLES_FILE} has no column ${selected.join}.${selected.column}; run \`npm run tables\``);
      const joined = columnType(type, fields.get(selected.join)?.[selected.column], views.includes(selected.join));
      // A left join's columns are null in a row without the relation.
      return selected.nullable ? orNull(joined.replace(/ \| null$/, ''), true) : joined;
    }
    const f = selected.field;
    // A SQL expression's type is its own: the view converts numbers (num) and dates (day) whatever pg made of them.
    if (!f || f.type === 'number') return 'unknown';
    if (f.type === 'date') return 'Date | string | null';
    return qualified(tsType(f));
  }

  const tableEntries = Object.entries(tables).map(([table, cols]) =>
    `  ${property(table)}: ${tableType(cols, fields.get(table) ?? {}, views.includes(table))};`);
  const rowTypes = models.map((m) => {
    const extra = Object.entries(m.selected).map(([key, s]) => `  ${property(key)}: ${selectedType(s)};`);
    const type = extra.length ? `Tables[${tsString(m.table)}] & {\n${extra.join('\n')}\n}` : `Tables[${tsString(m.table)}]`;
    return `/** A row of resources.${m.name}'s statement (generated/resources.ts). */\nexport type ${rowTypeName(m)} = ${type};`;
  });
  const usesT = [...tableEntries, ...rowTypes].some((line) => line.includes('T.'));
  return `${head}
${usesT ? "import type * as T from './types.js';\n" : ''}
/** Every table's row as pg hands it over (runtime/db.ts: timestamptz an ISO string, int8 a number; numeric a string,
 * date a Date, jsonb parsed), with what the spec's fields say a column holds (enum values, an object's type). */
export interface Tables {
${tableEntries.join('\n')}
}

${rowTypes.join('\n\n')}

${plainRows(operations)}`;
}
