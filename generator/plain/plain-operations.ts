// Operations that say `plain:` -> the handler the generator builds for each: a runtime/plain/ factory called with
// the operation's resource and its precomputed SQL. Checks what the meta-schema cannot (the kind fits the method
// and response, every query parameter has a filter, names exist), each problem at its file:line:column.
import type { ApiSpec, CascadeSpec, ExistsSpec, FieldSpec, FillSpec, OperationSpec, OwnerSpec, OwnSpec, PlainSpec, UniqueErrorSpec } from '../spec-types.js';
import type { TableColumns } from '../emit-rows.js';
import type { Locator } from '../check-references.js';
import { quoted, targetOf, type StoredModel } from './stored-resources.js';
import { tsLines, tsLiteral as literal } from './ts-literal.js';

export interface PlainModel {
  op: OperationSpec;
  /** the stored resource it answers; none for a summary, which reads a totals table */
  resource: StoredModel | null;
  /** the runtime/plain factory and its options (name -> TypeScript expression) */
  factory: 'plainRetrieve' | 'plainList' | 'plainDelete' | 'plainUpdate' | 'plainSummary' | 'plainTransition' | 'plainCreate' | 'plainAction';
  options: [string, string][];
  /** whether handlers/<area>/<operationId>.ts exports the operation's hook */
  hook: boolean;
  /** the shared hook it names instead (plain.hook.code): module under handlers/ and export */
  sharedHook: { module: string; name: string } | null;
  /** the fill it imports (plain.fill.code): module under handlers/ and export */
  fill: { module: string; name: string; local: string } | null;
  /** the finder it imports (plain.find.code) */
  find: { module: string; name: string; local: string } | null;
}

const FACTORY = {
  retrieve: 'plainRetrieve', list: 'plainList', delete: 'plainDelete', update: 'plainUpdate', summary: 'plainSummary', transition: 'plainTransition', create: 'plainCreate', action: 'plainAction',
} as const;
/** What each kind answers: its method(s) and the response key naming its resource. */
const SHAPE = {
  retrieve: { methods: ['GET'], response: 'type' },
  list: { methods: ['GET'], response: 'list' },
  delete: { methods: ['DELETE'], response: 'deleted' },
  update: { methods: ['PATCH', 'POST'], response: 'type' },
  summary: { methods: ['GET'], response: 'type' },
  transition: { methods: ['POST', 'DELETE'], response: 'type' },
  create: { methods: ['POST'], response: 'type' },
  action: { methods: ['POST', 'PATCH', 'DELETE'], response: 'type' },
} as const;
const ONLY: Record<string, PlainSpec['kind'][]> = {
  filters: ['list'], sort: ['list'], held_nowhere: ['list'], fields: ['update'], emits: ['create', 'delete', 'update', 'transition', 'action'], totals: ['summary'],
  unique: ['create'],
  hook: ['retrieve', 'list', 'delete', 'update', 'transition', 'create', 'action'], fill: ['retrieve', 'list', 'transition', 'action'],
  machine: ['transition'], transition: ['transition'], stamp: ['transition'], same_state: ['transition'],
  own: ['retrieve', 'list', 'delete', 'transition', 'action'], parent: ['list'], cascade: ['delete'], owner: ['retrieve', 'list'],
  find: ['retrieve', 'delete', 'transition', 'action'],
};
const PAGE_PARAMS = ['first', 'after', 'last', 'before'];
const SORT_KIND: Partial<Record<FieldSpec['type'], string>> = { timestamp: 'timestamp', integer: 'integer', string: 'text', enum: 'text', id: 'text' };

/** `tables` (migrations/tables.json), when the project has it, lets names of tables no stored resource reads be checked. */
export function plainModels(spec: ApiSpec, stored: Record<string, StoredModel>, at: Locator, problems: string[],
  tables: TableColumns | null = null): PlainModel[] {
  const out: PlainModel[] = [];
  for (const op of spec.operations) {
    if (!op.plain) continue;
    const model = plainModel(spec, op, op.plain, stored, tables, at, problems);
    if (model) out.push(model);
  }
  return out;
}

function plainModel(spec: ApiSpec, op: OperationSpec, plain: PlainSpec, stored: Record<string, StoredModel>,
  tables: TableColumns | null, at: Locator, problems: string[]): PlainModel | null {
  const file = `spec/areas/${op.area}.yaml`;
  const count = problems.length;
  const problem = (path: (string | number)[], message: string, key = false) =>
    problems.push(`${at(file, ['operations', op.id, ...path], key)}: operations.${op.id}.${path.join('.')} ${message}`);
  const shape = SHAPE[plain.kind];

  for (const [key, kinds] of Object.entries(ONLY)) {
    if (key in plain && !kinds.includes(plain.kind)) problem(['plain', key], `applies to a plain ${orList(kinds)}, not a ${plain.kind}`, true);
  }
  if (!(shape.methods as readonly string[]).includes(op.method)) {
    problem(['plain', 'kind'], `is ${plain.kind}, which answers ${shape.methods.join(' or ')}, not ${op.method}`);
  }
  const named = shape.response === 'list' ? op.response.list?.of : op.response[shape.response];
  if (!named) {
    problem(['plain', 'kind'], `is ${plain.kind}, which answers with response.${shape.response === 'list' ? 'list.of' : shape.response} naming its resource`);
    return null;
  }
  if (plain.kind === 'summary') return summaryModel(spec, op, plain, named, problem, count, problems);
  const resource = stored[named];
  if (!resource) {
    problem(['plain'], `needs the table ${named} is stored in; declare resources.${named}.table`, true);
    return null;
  }
  const unfilled = resource.callerFields.filter((f) => !plain.fill?.fields.includes(f));
  if (unfilled.length && plain.kind !== 'delete') {
    problem(['plain'], `cannot answer ${named}: its fields ${unfilled.join(', ')} are the caller's (caller: true), which a handler or a fill (plain.fill) adds`, true);
  }
  if (plain.fill) checkFill(op, plain, plain.fill, resource, problem);
  else if (plain.kind === 'retrieve') {
    for (const param of Object.keys(op.query)) problem(['query', param], 'is not taken by a plain retrieve: only a fill takes query parameters (plain.fill.query)', true);
  }
  const parent = plain.kind === 'list' && plain.parent ? parentOf(op, plain.parent, resource, stored, problem) : null;
  if (plain.parent && !/\/\{id\}\/[a-z_]+$/.test(op.path)) problem(['path'], `must end with {id}/<its rows>: a plain list of a parent's rows finds the parent by id`);
  if (plain.kind === 'create' && /\}$/.test(op.path)) problem(['path'], `must name a collection (no {id} at its end): a plain create makes a new ${named}`);
  else if (plain.kind === 'transition' || plain.kind === 'action' ? !/\/\{id\}(\/[a-z_]+)?$/.test(op.path) : plain.kind !== 'list' && plain.kind !== 'create' && !/\/\{id\}$/.test(op.path)) {
    problem(['path'], `must end with {id}${plain.kind === 'transition' || plain.kind === 'action' ? ' (or {id}/<action>)' : ''}: a plain ${plain.kind} finds its ${named} by id`);
  }
  if ((plain.kind !== 'list' || plain.parent) && plain.kind !== 'create' && op.account) problem(['account'], `is not taken by a plain ${plain.kind}: the account is the ${named}'s own`, true);
  // No scopes: the hook checks those the row calls for (after the 404 of an invisible account), or own.only gives
  // the row to its user alone.
  if (op.scopes.length === 0 && !plain.hook && !plain.own?.only) {
    problem(['plain'], 'needs scopes: a plain operation checks them on the object\'s account (with none, its hook checks a scope, or own.only)', true);
  }
  if (plain.kind === 'list' && op.scopes.length > 1) problem(['scopes'], 'names several scopes; a plain list narrows to the accounts where its one scope is held');
  if (plain.kind === 'action') checkAction(op, plain, problem);
  if (plain.find && plain.own) problem(['plain', 'own'], 'is not taken with find: the finder (plain.find) decides who reaches the row', true);
  if (plain.emits) {
    const event = spec.events[plain.emits];
    if (!event) problem(['plain', 'emits'], `names ${plain.emits}, which no area declares under events`);
    else if (event.schema !== named) problem(['plain', 'emits'], `names ${plain.emits}, which carries ${event.schema}, not ${named}`);
  }
  const scopes: [string, string] = ['scopes', literal(op.scopes)];
  const options: [string, string][] = plain.kind === 'list' ? listOptions(op, plain, resource, parent, tables, problem)
    : plain.kind === 'update' ? [scopes, ['table', literal(resource.table)], ['fields', updateFields(op, plain, resource, problem)]]
      : plain.kind === 'delete' ? [scopes, ['statement', literal(deleteStatement(resource))],
        ...(plain.cascade ? [['cascade', literal(cascadeStatements(plain.cascade, stored, tables, problem))] as [string, string]] : [])]
        : plain.kind === 'transition' ? [scopes, ...transitionOptions(spec, op, plain, resource, problem)]
          : plain.kind === 'create' ? createOptions(op, plain, resource, tables, problem)
            : [scopes];
  if (plain.own) options.push(['own', ownOption(op, plain.own, parent?.model ?? resource, problem)]);
  if (plain.owner) options.push(['owner', ownerOption(spec, op, plain, plain.owner, resource, tables, problem)]);
  if (plain.kind === 'list' && plain.own && !plain.own.only && !plain.parent) {
    problem(['plain', 'own'], 'needs only: true on a plain list without a parent: its rows are either the caller\'s own or its accounts\', not both', true);
  }
  if (plain.emits) options.push(['emits', literal(plain.emits)]);
  if (plain.hook) options.push(['hook', `${op.id}Hook`]);
  const fill = plain.fill ? fillImport(plain.fill) : null;
  if (fill) options.push(['fill', fill.local]);
  const find = plain.find ? findImport(plain.find) : null;
  if (find) options.push(['find', find.local]);
  if (problems.length > count) return null;
  const sharedHook = typeof plain.hook === 'object' ? codeImport(plain.hook.code) : null;
  return { op, resource, factory: FACTORY[plain.kind], options, hook: typeof plain.hook === 'string', sharedHook, fill, find };
}

/**
 * A summary answers `{ object, totals: [Total] }`, where Total's enum fields are the totals table's key columns (listed
 * in the order of their values, null first) and `count: integer` and `amount: money` its sums, by currency too.
 */
function summaryModel(spec: ApiSpec, op: OperationSpec, plain: PlainSpec, named: string, problem: Problem, count: number,
  problems: string[]): PlainModel | null {
  const fields = spec.resources[named]?.fields ?? {};
  const object = fields.object?.type === 'enum' && fields.object.values?.length === 1 ? fields.object.values[0] : null;
  const total = fields.totals?.type === 'array' && fields.totals.items?.type === 'ref' ? fields.totals.items.ref : null;
  if (!object || !total || Object.keys(fields).length !== 2) {
    problem(['response', 'type'], `names ${named}, which a plain summary answers as { object: <one enum value>, totals: [<a total>] } and nothing else`);
    return null;
  }
  const keys: { field: string; order: (string | null)[] }[] = [];
  for (const [field, f] of Object.entries(spec.resources[total]?.fields ?? {})) {
    if (field === 'count' && f.type === 'integer') continue;
    if (field === 'amount' && f.type === 'money') continue;
    if (f.type !== 'enum' || !f.values) {
      problem(['response', 'type'], `names ${named}, whose total ${total}.${field} is neither a key (an enum) nor count (integer) nor amount (money)`);
      continue;
    }
    keys.push({ field, order: [...(f.nullable ? [null] : []), ...f.values] });
  }
  const totalFields = spec.resources[total]?.fields ?? {};
  if (totalFields.count?.type !== 'integer' || totalFields.amount?.type !== 'money') {
    problem(['response', 'type'], `names ${named}, whose total ${total} needs count (integer) and amount (money)`);
  }
  const accountParam = op.account?.startsWith('query.') ? op.account.slice('query.'.length) : null;
  if (!accountParam) problem(['account'], 'must name a query parameter (query.account_id) for a plain summary');
  for (const param of Object.keys(op.query)) {
    if (param !== accountParam) problem(['query', param], 'is not taken by a plain summary: it totals by account only', true);
  }
  if (op.scopes.length !== 1) problem(['scopes'], 'must name one scope: a plain summary totals the accounts where it is held');
  if (!plain.totals) problem(['plain'], 'is a plain summary; it needs totals: the totals table it reads', true);
  if (problems.length > count) return null;
  const options: [string, string][] = [
    ['scope', literal(op.scopes[0])], ['accountParam', literal(accountParam)], ['table', literal(plain.totals)],
    ['object', literal(object)], ['keys', literal(keys)],
  ];
  return { op, resource: null, factory: 'plainSummary', options, hook: false, sharedHook: null, fill: null, find: null };
}

function deleteStatement(resource: StoredModel): string {
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
function cascadeStatements(cascade: CascadeSpec[], stored: Record<string, StoredModel>, tables: TableColumns | null,
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

type Problem = (path: (string | number)[], message: string, key?: boolean) => void;

/** `a`, `a or b`, `a, b or c` */
const orList = (words: readonly string[]) => (words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : words[0]);

/** A shared hook's module under handlers/ and export (`module#export`). */
function codeImport(code: string): { module: string; name: string } {
  const [module, name] = code.split('#');
  return { module, name };
}

/** The name generated/plain-operations.ts imports a fill under: its export's, marked so no operation's name meets it. */
function fillImport(fill: FillSpec): { module: string; name: string; local: string } {
  const [module, name] = fill.code.split('#');
  return { module, name, local: `${name}Fill` };
}

/** The name generated/plain-operations.ts imports a finder under, marked as a fill's is. */
function findImport(find: { code: string }): { module: string; name: string; local: string } {
  const [module, name] = find.code.split('#');
  return { module, name, local: `${name}Finder` };
}

/** A fill takes query parameters the operation has (a retrieve's, all of them) and sets fields no column holds. */
function checkFill(op: OperationSpec, plain: PlainSpec, fill: FillSpec, resource: StoredModel, problem: Problem): void {
  const taken = fill.query ?? [];
  taken.forEach((param, i) => {
    if (!(param in op.query)) problem(['plain', 'fill', 'query', i], `names ${param}, which is not a query parameter of the operation`);
  });
  if (plain.kind === 'retrieve') {
    for (const param of Object.keys(op.query)) {
      if (!taken.includes(param)) problem(['query', param], 'is not taken by the fill: a plain retrieve takes query parameters only for it (plain.fill.query)', true);
    }
  }
  fill.fields.forEach((field, i) => {
    if (!(field in resource.resource.fields)) problem(['plain', 'fill', 'fields', i], `names ${field}, which is not a field of ${resource.name}`);
    else if (resource.fields[field]) problem(['plain', 'fill', 'fields', i], `names ${field}, which is read from a column of ${resource.table}; a fill sets fields no column holds (value: or caller:)`);
  });
}

/**
 * A transition names a state machine declared for the resource it answers and one of that machine's transitions; the
 * machine's field and the stamped timestamps are columns of the resource's table.
 */
function transitionOptions(spec: ApiSpec, op: OperationSpec, plain: PlainSpec, resource: StoredModel, problem: Problem): [string, string][] {
  const named = resource.name;
  if (!plain.machine || !plain.transition) {
    problem(['plain'], 'is a plain transition; it needs machine (a state machine) and transition (one of its transitions)', true);
    return [];
  }
  const machine = spec.state_machines[plain.machine];
  if (!machine) {
    problem(['plain', 'machine'], `names ${plain.machine}, which no area declares under state_machines (${Object.keys(spec.state_machines).sort().join(', ')})`);
    return [];
  }
  if (plain.machine !== named) problem(['plain', 'machine'], `names ${plain.machine}, the lifecycle of ${plain.machine}; the operation answers ${named}`);
  if (!machine.transitions[plain.transition]) {
    problem(['plain', 'transition'], `names ${plain.transition}, which ${plain.machine} does not declare (${Object.keys(machine.transitions).join(', ')})`);
  }
  const state = targetOf(resource, machine.field);
  if (typeof state === 'string' || !state.column) problem(['plain', 'machine'], `names ${plain.machine}, whose field ${machine.field} is not a column of ${resource.table}`);
  const stamps: string[] = [];
  (plain.stamp ?? []).forEach((field, i) => {
    const target = targetOf(resource, field);
    const type = resource.resource.fields[field]?.type;
    if ((type && type !== 'timestamp') || typeof target === 'string' || !target.column) {
      problem(['plain', 'stamp', i], `names ${field}, which is neither a timestamp column field of ${named} nor a column of ${resource.table}`);
    } else stamps.push(target.column);
  });
  if (op.body && !plain.hook) {
    for (const field of Object.keys(op.body)) problem(['body', field], 'is not taken by a plain transition without a hook (plain.hook)', true);
  }
  if (!plain.fill) {
    for (const param of Object.keys(op.query)) problem(['query', param], 'is not taken by a plain transition: only a fill takes query parameters (plain.fill.query)', true);
  }
  const column = typeof state === 'string' ? '' : state.column ?? '';
  return [
    ['machine', literal(plain.machine)], ['action', literal(plain.transition)], ['table', literal(resource.table)],
    ['column', literal(column)], ['stamps', literal(stamps)], ['sameStateUnchanged', literal(plain.same_state === 'unchanged')],
  ];
}

/** An action's rule is all in its hook, which takes the body; a query parameter is only a fill's. */
function checkAction(op: OperationSpec, plain: PlainSpec, problem: Problem): void {
  if (!plain.hook) problem(['plain'], 'is a plain action; it needs a hook (plain.hook): the rule it carries out on the row', true);
  if (!plain.fill) {
    for (const param of Object.keys(op.query)) problem(['query', param], 'is not taken by a plain action: only a fill takes query parameters (plain.fill.query)', true);
  }
}

/** `own`: the row's user, named by a column, reaches it by their own user token (runtime/plain/own-rows.ts). */
function ownOption(op: OperationSpec, own: OwnSpec, resource: StoredModel, problem: Problem): string {
  const target = targetOf(resource, own.user);
  if (typeof target === 'string' || !target.column) {
    problem(['plain', 'own', 'user'], `names ${own.user}, which is not a column of ${resource.table}${typeof target === 'string' ? ` (${target})` : ''}`);
  }
  if (!op.auth.includes('user_token')) problem(['plain', 'own'], 'gives the row to its user\'s own token, but the operation does not take user tokens (auth)', true);
  if (own.only && op.scopes.length) problem(['scopes'], 'are never checked: with own.only the row\'s user alone reads it; declare none');
  if (own.only && own.refused) problem(['plain', 'own', 'refused'], 'cannot be: with own.only nobody else reads the row, so the user is never refused', true);
  const column = typeof target === 'string' ? own.user : target.column ?? own.user;
  return literal({ user: column, ...(own.refused ? { refused: own.refused } : {}), ...(own.only ? { only: true } : {}) });
}

/**
 * `owner`: the row's owner, named by a column, is an account (reached with the operation's scopes on it) or a user
 * (an id with the User resource's prefix: reached by their own user token alone); a list is of one owner, the one
 * its `query` parameter names or the caller's own (runtime/plain/row-owner.ts). It replaces the account rules, so
 * it takes none of the other ways to them.
 */
function ownerOption(spec: ApiSpec, op: OperationSpec, plain: PlainSpec, owner: OwnerSpec, resource: StoredModel,
  tables: TableColumns | null, problem: Problem): string {
  const target = targetOf(resource, owner.column);
  const columns = tables?.tables[resource.table];
  if (typeof target === 'string' || !target.column || (columns && !(target.column in columns))) {
    const why = typeof target === 'string' ? ` (${target})` : columns ? ' (migrations/tables.json)' : '';
    problem(['plain', 'owner', 'column'], `names ${owner.column}, which is not a column of ${resource.table}${why}`);
  }
  const userPrefix = spec.resources.User?.prefix;
  if (!userPrefix) problem(['plain', 'owner'], 'tells users\' ids by the User resource\'s prefix, but the spec has no User with a prefix', true);
  if (owner.query !== undefined) {
    if (plain.kind !== 'list') problem(['plain', 'owner', 'query'], `is for a list, which it narrows to one owner; a plain ${plain.kind} finds its row by id`);
    else if (!(owner.query in op.query)) problem(['plain', 'owner', 'query'], `names ${owner.query}, which is not a query parameter of the operation`);
    else if (plain.filters && owner.query in plain.filters) problem(['plain', 'filters', owner.query], `tests ${owner.query}, which names the owner (plain.owner.query); it is no filter`, true);
  }
  for (const other of ['own', 'parent', 'held_nowhere', 'find'] as const) {
    if (plain[other] !== undefined) problem(['plain', other], 'is not taken with owner: the owner\'s column decides who reaches the rows', true);
  }
  if (plain.kind === 'list' && op.account) problem(['account'], 'is not taken with plain.owner: the owner is the account (or user) the rows belong to', true);
  const column = typeof target === 'string' ? owner.column : target.column ?? owner.column;
  return literal({ column: `${resource.table}.${column}`, ...(owner.query ? { param: owner.query } : {}), userPrefix: userPrefix ?? '' });
}

/**
 * A create writes its body: the account named by `account: body.<field>` (checked by the runtime before the handler),
 * and every other field in its column (a metadata field as JSON). A field no column takes as sent (an object or a
 * list, a field read otherwise, a column migrations/tables.json lacks) is left to the hook, or is a spec error.
 */
function createOptions(op: OperationSpec, plain: PlainSpec, resource: StoredModel, tables: TableColumns | null,
  problem: Problem): [string, string][] {
  const body = op.body ?? {};
  const accountParam = op.account?.startsWith('body.') ? op.account.slice('body.'.length) : null;
  if (!accountParam || !body[accountParam]?.required) {
    problem(op.account ? ['account'] : ['plain'], 'must name a required body field (account: body.account_id) for a plain create: the account it creates in', !op.account);
  }
  const prefix = resource.resource.prefix;
  if (!prefix) problem(['response', 'type'], `names ${resource.name}, which has no prefix: a plain create makes its id from it`);
  const columns = tables?.tables[resource.table];
  const out: Record<string, { column: string; metadata: boolean }> = {};
  for (const [field, input] of Object.entries(body)) {
    if (field === accountParam) continue;
    const target = targetOf(resource, field);
    const column = typeof target === 'string' ? null : target.column;
    const json = input.type === 'object' || input.type === 'array';
    if (column && !json && (!columns || column in columns)) {
      out[field] = { column, metadata: input.type === 'metadata' };
    } else if (!plain.hook) {
      const why = typeof target === 'string' ? target : !column ? 'not a column' : json ? `an ${input.type}, which a hook writes`
        : `not a column of ${resource.table} (migrations/tables.json)`;
      problem(['body', field], `has no column a plain create writes it to (${why}); its hook (plain.hook) takes it`, true);
    }
  }
  return [['prefix', literal(prefix ?? '')], ['table', literal(resource.table)], ['accountParam', literal(accountParam ?? '')],
    ['fields', tsLines(out)], ...(plain.unique ? [['unique', uniqueErrors(op, plain.unique, problem)] as [string, string]] : [])];
}

/**
 * `unique`: the error a create's insert answers when it breaks the named constraint (a duplicate another request may
 * have written a moment before). migrations/tables.json records no constraints, so the name is taken as written; the
 * param and the message's `{field}`s are body fields, and the status is one the operation declares.
 */
function uniqueErrors(op: OperationSpec, unique: Record<string, UniqueErrorSpec>, problem: Problem): string {
  const body = op.body ?? {};
  const out: Record<string, Required<UniqueErrorSpec>> = {};
  for (const [constraint, error] of Object.entries(unique)) {
    const path = ['plain', 'unique', constraint];
    const status = error.status ?? 409;
    if (!op.errors.includes(status)) problem([...path, ...(error.status ? ['status'] : [])], `answers ${status}, which the operation's errors do not list`);
    if (!(error.param in body)) problem([...path, 'param'], `names ${error.param}, which is not a body field of the operation`);
    for (const [, field] of error.message.matchAll(/\{([^}]*)\}/g)) {
      if (!(field in body)) problem([...path, 'message'], `names {${field}}, which is not a body field of the operation`);
    }
    out[constraint] = { status, type: error.type ?? 'conflict', message: error.message, param: error.param };
  }
  return tsLines(out);
}

function updateFields(op: OperationSpec, plain: PlainSpec, resource: StoredModel, problem: Problem): string {
  const body = op.body ?? {};
  const fields = plain.fields ?? [];
  if (fields.length === 0) problem(['plain'], 'is a plain update; it needs fields: the body fields it writes', true);
  const out: Record<string, { column: string; merge: boolean }> = {};
  fields.forEach((field, i) => {
    if (!(field in body)) return problem(['plain', 'fields', i], `names ${field}, which the body does not take`);
    const target = targetOf(resource, field);
    if (typeof target === 'string' || !target.column) {
      return problem(['plain', 'fields', i], `names ${field}, which is not a column of ${resource.table}${typeof target === 'string' ? ` (${target})` : ''}`);
    }
    out[field] = { column: target.column, merge: body[field].type === 'metadata' };
  });
  if (!plain.hook) {
    for (const field of Object.keys(body)) {
      if (!fields.includes(field)) problem(['body', field], `is neither written (plain.fields) nor taken by a hook (plain.hook)`, true);
    }
  }
  return tsLines(out);
}

/**
 * `parent`: the list is the rows of one object of a stored resource, named by the path's {id} and read as its plain
 * retrieve reads it (the account is the parent's); `column` is the listed table's column naming it.
 */
function parentOf(op: OperationSpec, parent: { resource: string; column: string }, resource: StoredModel,
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
function existsStatement(exists: ExistsSpec, resource: StoredModel, tables: TableColumns | null,
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

function listOptions(op: OperationSpec, plain: PlainSpec, resource: StoredModel, parent: { model: StoredModel; column: string } | null,
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
