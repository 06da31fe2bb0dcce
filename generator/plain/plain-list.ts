// A plain list's options: its filters (exists tests included), sorts, paging parameters and parent.
import type { ExistsSpec, FieldSpec, OperationSpec, PlainSpec } from '../spec-types.js';
import type { TableColumns } from '../emit-rows.js';
import { quoted, targetOf, type StoredModel } from './stored-resources.js';
import { tsLines, tsLiteral as literal } from './ts-literal.js';
import type { Problem } from './plain-shared.js';
export const PAGE_PARAMS = ['first', 'after', 'last', 'before'];
export const SORT_KIND: Partial<Record<FieldSpec['type'], string>> = { timestamp: 'timestamp', integer: 'integer', string: 'text', enum: 'text', id: 'text' };

/**
 * `parent`: the list is the rows of one object of a stored resource, named by the path's {id} and read as its plain
 * retrieve reads it (the account is the parent's); `column` is the listed table's column naming it.
 */
export function parentOf(op: OperationSpec, parent: { resource: string; column: string }, resource: StoredModel,
  stored: Record<string, StoredModel>, problem: Problem): { model: StoredModel; column: string } | null {
  const model = stored[parent.resource];
  const target = targetOf(resource, parent.column);
  if (!model) problem(['plain', 'parent', 'resource'], `names ${parent.resource}, which is not a stored resource (one with a table:)`);
  if (typeof target === 'string' || !target.column) {
    problem(['plain', 'parent', 'column'], `names ${parent.column}, which is not a column of ${resource.table}${typeof target === 'string' ? ` (${target})` : ''}`);
  }
  if (op.plain?.held_nowhere) problem(['plain', 'held_nowhere'], 'is never said: the list of a parent\'s rows names its account (the parent\'s)', true);
  if (!model || typeof target === 'string' || !target.column) return null;
  return { model, column: `${resource.table}.${target.column}` };
}

/**
 * `exists`: the test that a row of another table relates to the listed row and holds the value (`?`), as one EXISTS
 * subquery the planner can answer through an index on the related table. With migrations/tables.json, its table and
 * columns are checked (the listed row's column too).
 */
export function existsStatement(exists: ExistsSpec, resource: StoredModel, tables: TableColumns | null,
  problem: (path: string[], message: string) => void): string {
  const [theirs, ours] = typeof exists.on === 'string' ? [exists.on, 'id'] : Object.entries(exists.on)[0];
  const related = tables?.tables[exists.table];
  if (tables && !related) problem(['table'], `names ${exists.table}, which no migration creates (migrations/tables.json)`);
  else if (related) {
    for (const [key, column] of [['on', theirs], ['equal', exists.equal]]) {
      if (!(column in related)) problem([key], `names ${column}, which is not a column of ${exists.table} (migrations/tables.json)`);
    }
  }
  const listed = tables?.tables[resource.table];
  if (listed && !(ours in listed)) problem(['on'], `names ${ours}, which is not a column of ${resource.table} (migrations/tables.json)`);
  const R = quoted('related');
  return `exists (select 1 from ${quoted(exists.table)} as ${R} where ${R}.${quoted(theirs)} = ${quoted(resource.table)}.${quoted(ours)} `
    + `and ${R}.${quoted(exists.equal)} = ?)`;
}

export function listOptions(op: OperationSpec, plain: PlainSpec, resource: StoredModel, parent: { model: StoredModel; column: string } | null,
  tables: TableColumns | null, problem: Problem): [string, string][] {
  const T = resource.table;
  const accountParam = op.account?.startsWith('query.') ? op.account.slice('query.'.length) : null;
  if (op.account && !accountParam) problem(['account'], 'must name a query parameter (query.account_id) for a plain list');
  // Without a scope there is no "every account where it is held": the list is of one account, a parent or one's own.
  if (!op.scopes.length && !parent && !plain.own?.only && !(accountParam && op.query[accountParam]?.required)) {
    problem(['plain'], 'is a plain list without a scope, so it needs a required account parameter (account: query.<param>), a parent or own.only', true);
  }
  const sorts = plain.sort ?? ['created_at'];
  const sortParam = sorts.length > 1 ? 'order' : null;
  const directionParam = 'direction' in op.query ? 'direction' : null;
  const filters = plain.filters ?? {};
  const taken = new Set([...PAGE_PARAMS, ...(plain.fill?.query ?? []), ...(accountParam ? [accountParam] : []), ...(plain.owner?.query ? [plain.owner.query] : []), ...(sortParam ? [sortParam] : []), ...(directionParam ? [directionParam] : [])]);
  for (const param of Object.keys(op.query)) {
    if (!taken.has(param) && !(param in filters)) problem(['query', param], 'has no filter: declare it under plain.filters', true);
  }
  const compiled: { param: string; test: string; sql: string[]; emptyUnfiltered?: true }[] = [];
  for (const [param, filter] of Object.entries(filters)) {
    const path = ['plain', 'filters', param];
    if (!(param in op.query)) {
      problem(path, `filters on ${param}, which is not a query parameter of the operation`, true);
      continue;
    }
    if (filter === 'hook') {
      if (!plain.hook) problem(path, 'is left to the hook, but the operation declares no plain.hook');
      continue;
    }
    if (typeof filter === 'object' && filter.exists) {
      const exists = filter.exists;
      if (op.query[param].type === 'array') problem([...path, 'exists'], `is on ${param}, a list; a related row is tested for one value`);
      if (exists.empty && op.query[param].type !== 'string') problem([...path, 'exists', 'empty'], `is said of ${param}, which is no text: it is never empty`);
      compiled.push({ param, test: 'exists', sql: [existsStatement(exists, resource, tables, (p, m) => problem([...path, 'exists', ...p], m))],
        ...(exists.empty ? { emptyUnfiltered: true as const } : {}) });
      continue;
    }
    const [test, names] = filter === 'equal' || filter === 'keyed'
      ? [filter, [param]]
      : Object.entries(filter).map(([k, v]) => [k, Array.isArray(v) ? v : [v]] as [string, string[]])[0];
    const sql: string[] = [];
    for (const name of names as string[]) {
      const target = targetOf(resource, name);
      if (typeof target === 'string') problem([...path, test as string], `names ${name}: ${target}`);
      // a column, as the index holds it; text, as the walk passes its values (runtime/pagination.ts, Walk)
      else if (test === 'keyed' && (!target.column || SORT_KIND[resource.resource.fields[name]?.type] !== 'text')) {
        problem([...path, test], `names ${name}, which is not a text column field of ${resource.name}: only one can be walked through an index`);
      }
      else sql.push(target.sql);
    }
    if (test === 'keyed' && compiled.some((f) => f.test === 'keyed')) problem([...path, test], 'is a second keyed filter: a page walks one index, so one filter of a list is keyed');
    compiled.push({ param, test, sql });
  }
  const sortEntries: Record<string, { column: string; kind: string }> = {};
  sorts.forEach((field, i) => {
    const target = targetOf(resource, field);
    const type = resource.resource.fields[field]?.type;
    if (typeof target === 'string' || !target.column || !type || !SORT_KIND[type]) {
      problem(['plain', 'sort', i], `names ${field}, which is not a timestamp, integer or text column field of ${resource.name}`);
    } else sortEntries[field] = { column: `${T}.${target.column}`, kind: SORT_KIND[type]! };
  });
  if (sortParam) {
    const order = op.query.order;
    if (!order || order.type !== 'enum' || order.values!.join() !== sorts.join()) {
      problem(['plain', 'sort'], `lists several sorts, so the operation takes order: { type: enum, values: [${sorts.join(', ')}] }`);
    }
  }
  const parentOption: [string, string][] = parent ? [['parent', `{ resource: resources.${parent.model.name}, column: ${literal(parent.column)} }`]] : [];
  return [
    ...parentOption,
    ['scope', literal(op.scopes[0] ?? null)], ['accountParam', literal(accountParam)], ['accountColumn', literal(`${T}.account_id`)],
    ...(plain.held_nowhere ? [['heldNowhere', literal(plain.held_nowhere)] as [string, string]] : []),
    ['filters', tsLines(compiled)], ['sorts', literal(sortEntries)], ['sortParam', literal(sortParam)],
    ['directionParam', literal(directionParam)], ['idColumn', literal(`${T}.id`)],
  ];
}
