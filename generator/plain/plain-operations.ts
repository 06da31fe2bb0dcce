// Operations that say `plain:` -> the handler the generator builds for each: a runtime/plain/ factory called with
// the operation's resource and its precomputed SQL. Checks what the meta-schema cannot (the kind fits the method
// and response, every query parameter has a filter, names exist), each problem at its file:line:column.
import type { ApiSpec, FillSpec, OperationSpec, PlainSpec } from '../spec-types.js';
import type { TableColumns } from '../emit-rows.js';
import type { Locator } from '../check-references.js';
import type { StoredModel } from './stored-resources.js';
import { tsLiteral as literal } from './ts-literal.js';
import type { PlainModel, Problem } from './plain-shared.js';
import { summaryModel } from './plain-summary.js';
import { cascadeStatements, deleteStatement } from './plain-delete.js';
import { checkAction, transitionOptions } from './plain-transition.js';
import { ownerOption, ownOption } from './plain-owners.js';
import { createOptions, updateFields } from './plain-writes.js';
import { listOptions, parentOf } from './plain-list.js';

export type { PlainModel } from './plain-shared.js';

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
