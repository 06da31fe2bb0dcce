// Resources that name their `table:` -> what the runtime needs to read them: the one statement reading a row with
// its relations (precomputed SQL text), the view turning such a row into the resource (TypeScript source), and
// where each field lives in SQL (for filters, sorts and updates). Every problem carries its file:line:column.
import type { ApiSpec, ColumnForm, ColumnSpec, FieldSpec, ResourceSpec } from '../spec-types.js';
import type { Locator } from '../check-references.js';
import { tsLiteral, tsString } from './ts-literal.js';
import { hiddenFields } from '../versions.js';

/** Where a field lives in SQL: an expression, and the column of the table itself when it is one. */
export interface FieldTarget {
  sql: string;
  column?: string;
}

export interface StoredModel {
  name: string;
  area: string;
  noun: string;
  table: string;
  /** select list and from clause of the statement reading the resource */
  columns: string;
  from: string;
  live: string | null;
  /** the view reads only the table's own columns (no join, no SQL expression) */
  bareRows: boolean;
  /** `(row) => ({ ... })`, in TypeScript */
  view: string;
  /** module under handlers/ -> the functions the view calls (`code:` fields) */
  codeImports: Map<string, Set<string>>;
  /** runtime helpers the view calls (money, num, day) */
  helpers: Set<string>;
  /** a field of the resource -> where it lives; null: it is not a column (a constant, code, an object) */
  fields: Record<string, FieldTarget | null>;
  /** object fields read from a joined table: their alias */
  relations: Record<string, string>;
  /** fields the caller decides (`caller: true`), left out of the view for handlers to add */
  callerFields: string[];
  /** fields the head hides (field_hidden): left out of the statement and the view; each its own select list and
   * reader, for the runtime to fill for callers of versions that show it */
  hidden: Record<string, { select: string; columns: string[]; read: string }>;
  /** what the statement selects beside the table's columns, for its row's type (generated/rows.ts): a joined table's
   * column, or a SQL field's value (its field; null when code or a handler makes the field from it) */
  selected: Record<string, SelectedColumn>;
  /** the table's columns fields read as they are -> the field (its enum values, its object's type); null when two
   * fields read one column as different types */
  columnFields: Record<string, FieldSpec | null>;
  /** the table's own columns the view and its caller fields read, when the generator can tell (every code and caller
   * field says what it reads): a read for the view alone selects these and `extraSelects`; null: it reads them all */
  viewColumns: string[] | null;
  /** what the statement selects beside the table's own columns (joined columns, SQL fields) */
  extraSelects: string[];
  resource: ResourceSpec & { area: string };
}

export type SelectedColumn = { join: string; column: string; nullable: boolean } | { field: FieldSpec | null };

export const quoted = (name: string): string => `"${name}"`;
const access = (key: string): string => (/^[a-z_][a-z0-9_]*$/.test(key) ? `row.${key}` : `row[${tsString(key)}]`);
const property = (key: string): string => (/^[a-z_][a-z0-9_]*$/i.test(key) ? key : tsString(key));
const formOf = (spec: ColumnSpec | undefined): ColumnForm => (typeof spec === 'string' ? { column: spec } : spec ?? {});

/** The fields of an object-valued field: its own, or those of the resource or component it refers to. */
function objectFields(spec: ApiSpec, f: FieldSpec): Record<string, FieldSpec> | undefined {
  if (f.type === 'object') return f.fields;
  if (f.type === 'ref') return (spec.resources[f.ref!] ?? spec.components[f.ref!])?.fields;
  return undefined;
}

/** TypeScript reading a value of type `f` from `expr`, where the database's value needs converting. */
function converted(f: FieldSpec, expr: string, helpers: Set<string>): string {
  if (f.type === 'number') {
    helpers.add('num');
    return `num(${expr})`;
  }
  if (f.type === 'date') {
    helpers.add('day');
    // day() reads a null column as null: a field that is never null says so to the type-checker.
    return f.nullable ? `day(${expr})` : `day(${expr})!`;
  }
  return expr;
}

export function storedModel(spec: ApiSpec, name: string, resource: ResourceSpec & { area: string }, at: Locator,
  problems: string[]): StoredModel {
  const table = resource.table!;
  const file = `spec/areas/${resource.area}.yaml`;
  const node = (path: (string | number)[], key = false) => at(file, ['resources', name, 'table', ...path], key);
  const T = quoted(table.name);
  const selects = [`${T}.*`];
  const joins: string[] = [];
  const model: StoredModel = {
    name, area: resource.area, table: table.name, resource, columns: '', from: '', live: null, bareRows: true, view: '',
    noun: table.noun ?? (resource.object ?? name).replace(/_/g, ' '),
    codeImports: new Map(), helpers: new Set(), fields: {}, relations: {}, callerFields: [], hidden: {}, selected: {},
    columnFields: {}, viewColumns: null, extraSelects: [],
  };
  // The columns code and caller fields of the head's view read (`reads:`); null once one does not say.
  let codeReads: Set<string> | null = new Set();
  let readingHidden = false;
  const hiddenHere = hiddenFields(spec).get(name) ?? new Set<string>();
  const problem = (path: (string | number)[], message: string, key = false) =>
    problems.push(`${node(path, key)}: resources.${name}.table.${path.join('.')} ${message}`);

  for (const field of Object.keys(table.columns ?? {})) {
    if (!(field in resource.fields)) problem(['columns', field], `names ${field}, which is not a field of ${name}`, true);
  }

  /** `present ? expr : null` for a `when:` condition on the row's own columns. */
  function guarded(form: ColumnForm, f: FieldSpec, path: (string | number)[], expr: string): string {
    if (form.when === undefined) return expr;
    if (!f.nullable) problem([...path, 'when'], 'makes the field null at times, but the field is not nullable');
    const test = typeof form.when === 'string'
      ? `${access(form.when)} !== null`
      : Object.entries(form.when).map(([c, v]) => `${access(c)} === ${tsString(v)}`).join(' && ');
    return `(${test} ? ${expr} : null)`;
  }

  /** What a code or caller field of the head's view reads of the row's own columns; unknown once one does not say. */
  function noteReads(form: ColumnForm): void {
    if (readingHidden) return;
    if (form.reads && codeReads) for (const column of form.reads) codeReads.add(column);
    else codeReads = null;
  }

  /** TypeScript reading field `field` (of type f) from a row of the table; `top` registers where it lives. */
  function read(field: string, f: FieldSpec, columnSpec: ColumnSpec | undefined, path: (string | number)[], top: boolean,
    underWhen = false): string {
    const form = formOf(columnSpec);
    // sql may feed code or a caller field: the expression is read, the function or the handler makes the field.
    const forms = (['sql', 'value', 'code', 'caller', 'join'] as const).filter((k) => k in form)
      .filter((k, _, all) => !(k === 'sql' && (all.includes('code') || all.includes('caller'))));
    if (forms.length > 1) problem(path, `has ${forms.join(' and ')}; a field is read one way`);
    if (form.reads && !form.code && !form.caller) problem([...path, 'reads'], 'says what a code or caller field reads; this field is neither');
    if (form.caller && !top) problem([...path, 'caller'], 'is for a resource\'s own fields; a handler adds a whole field');
    const inner = objectFields(spec, f);
    if (form.columns && !inner) problem([...path, 'columns'], `maps the fields of ${field}, which is not an object`);
    if (form.currency && f.type !== 'money') problem([...path, 'currency'], `names a currency column, but ${field} is not money`);
    if ((form.join === undefined) !== (form.on === undefined)) problem(path, 'needs both join (the table) and on (the column holding its id)');
    const register = (target: FieldTarget | null) => { if (top) model.fields[field] = target; };

    if ('value' in form) {
      register(null);
      return tsLiteral(form.value ?? null);
    }
    const selected = (sql: string) => {
      selects.push(`(${sql}) as ${quoted(`$${field}`)}`);
      model.selected[`$${field}`] = { field: null };
      model.bareRows = false;
    };
    if (form.caller) {
      if (form.sql) selected(form.sql);
      noteReads(form);
      model.callerFields.push(field);
      register(null);
      return '';
    }
    if (form.code) {
      if (form.sql) selected(form.sql);
      const [module, fn] = form.code.split('#');
      if (!model.codeImports.has(module)) model.codeImports.set(module, new Set());
      model.codeImports.get(module)!.add(fn);
      noteReads(form);
      register(null);
      return `${fn}(row)`;
    }
    if (form.sql) {
      const alias = `$${field}`;
      selects.push(`(${form.sql}) as ${quoted(alias)}`);
      model.selected[alias] = { field: f };
      model.bareRows = false;
      register({ sql: `(${form.sql})` });
      return converted(f, access(alias), model.helpers);
    }
    if (form.join && form.on) {
      if (!top) problem(path, 'joins a table inside an object; only a resource\'s own fields can be joined');
      if (!inner) {
        problem([...path, 'join'], `joins a table for ${field}, which is not an object`);
        return 'null';
      }
      const alias = quoted(field);
      joins.push(`${f.nullable ? 'left join' : 'join'} ${quoted(form.join)} as ${alias} on ${alias}."id" = ${T}.${quoted(form.on)}`);
      model.relations[field] = alias;
      model.bareRows = false;
      const parts = Object.entries(inner).map(([sub, subSpec]) => {
        const subForm = formOf(form.columns?.[sub]);
        if (Object.keys(subForm).some((k) => k !== 'column')) problem([...path, 'columns', sub], 'of a joined table can only name a column');
        const key = `${field}.${sub}`;
        selects.push(`${alias}.${quoted(subForm.column ?? sub)} as ${quoted(key)}`);
        model.selected[key] = { join: form.join!, column: subForm.column ?? sub, nullable: f.nullable ?? false };
        // A left join's columns are null in a row without the relation (generated/rows.ts says so), and the view
        // reads them only in a row with it (its `on` column set): there they are as the joined table has them.
        return `${property(sub)}: ${converted(subSpec, `${access(key)}${f.nullable ? '!' : ''}`, model.helpers)}`;
      });
      register(null);
      const object = `{ ${parts.join(', ')} }`;
      return f.nullable ? `${access(form.on)} === null ? null : ${object}` : object;
    }
    if (inner && (form.columns || form.when !== undefined)) {
      for (const sub of Object.keys(form.columns ?? {})) {
        if (!(sub in inner)) problem([...path, 'columns', sub], `names ${sub}, which is not a field of ${field}`, true);
      }
      const parts = Object.entries(inner).map(([sub, subSpec]) =>
        `${property(sub)}: ${read(sub, subSpec, form.columns?.[sub], [...path, 'columns', sub], false, underWhen || form.when !== undefined)}`);
      register(null);
      return guarded(form, f, path, `{ ${parts.join(', ')} }`);
    }
    const column = form.column ?? field;
    register({ sql: `${T}.${quoted(column)}`, column });
    const known = model.columnFields[column];
    model.columnFields[column] = known === undefined || JSON.stringify(known) === JSON.stringify(f) ? f : null;
    if (f.type === 'money') {
      model.helpers.add('money');
      const amount = access(column);
      // A money field null at times is read only with its amount set, and its currency is set with it.
      const value = `money(Number(${amount}), ${access(form.currency ?? 'currency')}${f.nullable || underWhen ? '!' : ''})`;
      return guarded(form, f, path, f.nullable && form.when === undefined ? `${amount} === null ? null : ${value}` : value);
    }
    // An object a `when:` makes null is read only in a row meeting it, where its fields that are never null are set
    // (the table may not say so: a column null in other rows).
    const set = underWhen && !f.nullable ? '!' : '';
    return guarded(form, f, path, converted(f, `${access(column)}${set}`, model.helpers));
  }

  /** A hidden field is read by its own statement (only for callers that are shown it): its selects are its own. */
  function readHidden(field: string, f: FieldSpec): string {
    const before = selects.length;
    const bare = model.bareRows;
    const selectedBefore = new Set(Object.keys(model.selected));
    const form = formOf(table.columns?.[field]);
    if (!form.sql) problem(['columns', field], `is hidden at the head (field_hidden); read it by sql, selected only for the callers shown it`);
    readingHidden = true;
    const expr = read(field, f, table.columns?.[field], ['columns', field], true);
    readingHidden = false;
    const columns = Object.keys(model.selected).filter((key) => !selectedBefore.has(key));
    model.hidden[field] = { select: selects.splice(before).join(', '), columns, read: `(row: Row) => ${expr}` };
    model.bareRows = bare;
    for (const key of columns) delete model.selected[key];
    return '';
  }
  const parts = Object.entries(resource.fields)
    .map(([field, f]) => [field, hiddenHere.has(field) ? readHidden(field, f) : read(field, f, table.columns?.[field], ['columns', field], true)])
    .filter(([field]) => !model.callerFields.includes(field) && !hiddenHere.has(field)).map(([field, expr]) => `${property(field)}: ${expr}`);
  model.view = `(row: Row): ${viewType(model)} => ({\n      ${parts.join(',\n      ')},\n    })`;
  model.columns = selects.join(', ');
  model.extraSelects = selects.slice(1);
  if (codeReads) {
    // The row's own columns the view's code names (row.x, row['x']); joined and selected values ('user.id', '$x')
    // come with extraSelects.
    const named = [...model.view.matchAll(/\brow(?:\.([a-z_][a-z0-9_]*)|\['([^'.$]+)'\])/g)].map((m) => m[1] ?? m[2]);
    model.viewColumns = [...new Set(['id', ...named, ...codeReads])];
  }
  model.from = [T, ...joins].join(' ');
  model.live = table.soft_delete ? `${T}.${quoted(table.soft_delete)} is null` : null;
  return model;
}

/** The view's TypeScript type: the resource, less the fields its handlers add for the caller. */
export const viewType = (model: StoredModel): string => (model.callerFields.length
  ? `Omit<T.${model.name}, ${model.callerFields.map((f) => tsString(f)).join(' | ')}>`
  : `T.${model.name}`);

/** Every resource with a table, by name. */
export function storedModels(spec: ApiSpec, at: Locator, problems: string[]): Record<string, StoredModel> {
  const out: Record<string, StoredModel> = {};
  for (const [name, resource] of Object.entries(spec.resources)) {
    if (resource.table) out[name] = storedModel(spec, name, resource, at, problems);
  }
  for (const [name, component] of Object.entries(spec.components)) {
    if (component.table) problems.push(`${at('spec/api.yaml', ['components', name, 'table'], true)}: components.${name} names a table; only resources of an area are stored`);
  }
  return out;
}

/** Where a filter's or an update's name lives: a field, `relation.column` through a join, or else a column of the
 * table itself; null (with the reason) when it names a field that is not a column. */
export function targetOf(model: StoredModel, name: string): FieldTarget | string {
  const [first, rest] = name.split('.');
  if (rest !== undefined) {
    const alias = model.relations[first];
    if (!alias) return `${first} is not a field of ${model.name} read from a joined table`;
    const mapped = formOf(model.resource.table!.columns?.[first]).columns?.[rest];
    return { sql: `${alias}.${quoted(formOf(mapped).column ?? rest)}` };
  }
  if (!(first in model.fields)) return { sql: `${quoted(model.table)}.${quoted(first)}`, column: first };
  return model.fields[first] ?? `${model.name}.${first} is not read from a column (a constant, code or an object)`;
}
