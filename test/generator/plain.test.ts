// Stored resources (a resource's table:) and plain operations (an operation's plain:): what the generator emits for
// them, and the problems it reports, each at its file:line:column.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { generate } from '../../generator/generate.js';
import { loadSpec } from '../../generator/load-spec.js';
import { projectRoot } from '../../runtime/project-root.js';
import {
  FIXTURE_FILE as F, lineOf, problemAt, problemsWith, projectCopy, readText, removeCopies, replaceOnce, runGenerator, writeIn,
} from './spec-fixture.js';

const t = suite('generator: stored resources and plain operations');
t.after(() => removeCopies());

/** A stored resource with a join, a renamed column, money, a constant and a soft delete, and one plain operation of
 * each kind. */
const PLAIN = `resources:
  TestWidget:
    prefix: twgt_
    object: test_widget
    table:
      name: test_widgets
      soft_delete: deleted_at
      columns:
        owner: { join: accounts, on: account_id }
        size: size_cm
        secret: { value: null }
        popularity: { value: 0 }
    fields:
      id: { type: id, resource: TestWidget }
      owner:
        type: object
        fields:
          id: { type: id, resource: Account }
          title: string
      name: string
      colour: { type: enum, values: [red, green] }
      size: integer?
      price: money
      secret: string?
      metadata: metadata
      popularity: integer
      created_at: timestamp

  TestWidgetTotal:
    fields:
      colour: { type: enum, values: [red, green] }
      shade: { type: enum, nullable: true, values: [light, dark] }
      count: integer
      amount: money

  TestWidgetSummary:
    object: test_widget_summary
    fields:
      object: { type: enum, values: [test_widget_summary] }
      totals: { type: array, items: { type: ref, ref: TestWidgetTotal } }

operations:
  listTestWidgets:
    method: GET
    path: /test_widgets
    summary: List test widgets
    account: query.account_id
    scopes: [company:basic:read]
    query:
      account_id: { type: id, resource: Account }
      colour: { type: enum, values: [red, green] }
      colours: { type: array, items: { type: enum, values: [red, green] } }
      owner_title: string
      created_after: timestamp
      since: timestamp
    response: { list: { of: TestWidget, default_page_size: 10, max_page_size: 50 } }
    plain:
      kind: list
      filters:
        colour: keyed
        colours: { equal: colour }
        owner_title: { contains: [owner.title, name] }
        created_after: { after: created_at }
      fill: &fill { code: 'test_widgets/widget-fill#widgetPopularity', query: [since], fields: [popularity] }

  retrieveTestWidget:
    method: GET
    path: /test_widgets/{id}
    summary: Retrieve a test widget
    scopes: [company:basic:read]
    query: { since: timestamp }
    response: { type: TestWidget }
    plain: { kind: retrieve, fill: *fill }

  updateTestWidget:
    method: PATCH
    path: /test_widgets/{id}
    summary: Update a test widget
    scopes: [company:update]
    body:
      name: { type: string, max_length: 50 }
      size: { type: integer, storage: int4 }
      metadata: { type: metadata }
    response: { type: TestWidget }
    plain: { kind: update, fields: [name, size, metadata] }

  deleteTestWidget:
    method: DELETE
    path: /test_widgets/{id}
    summary: Delete a test widget
    scopes: [company:update]
    response: { deleted: TestWidget }
    plain: { kind: delete, hook: Refuses to delete the last widget of an account. }

  testWidgetSummary:
    method: GET
    path: /test_widgets/summary
    summary: Test widget totals
    account: query.account_id
    scopes: [company:basic:read]
    query:
      account_id: { type: id, resource: Account }
    response: { type: TestWidgetSummary }
    plain: { kind: summary, totals: test_widget_totals }
`;

const after = (text: string, anchor: string, added: string) => replaceOnce(text, anchor, `${anchor}${added}`);

let generated: Record<string, string> | undefined;
/** What generate() emits for a copy with the fixture above (once: it takes seconds). */
const emitted = () => (generated ??= generate(projectCopy({ fixture: PLAIN })).files);

t('a stored resource is read by one statement: its table with its relations joined, live rows only', () => {
  const resources = emitted()['resources.ts'];
  const byId = /TestWidget: \{[\s\S]*?byId: '(.*)',\n/.exec(resources)![1];
  assert.is(byId, 'select "test_widgets".*, "owner"."id" as "owner.id", "owner"."title" as "owner.title" from "test_widgets" '
    + 'join "accounts" as "owner" on "owner"."id" = "test_widgets"."account_id" '
    + 'where "test_widgets"."id" = $1 and "test_widgets"."deleted_at" is null');
  assert.match(resources, "size: row.size_cm,\n");
  assert.match(resources, "price: money(Number(row.price), row.currency),\n");
  assert.match(resources, 'secret: null,\n');
  assert.match(resources, "owner: { id: row['owner.id'], title: row['owner.title'] },\n");
  // The real Product (generated/ is fresh: npm run check): its account object comes from the same statement, never
  // from a query per relation.
  const real = readText(join(projectRoot, 'generated/resources.ts'));
  const product = /Product: \{[\s\S]*?byId: '(.*)',\n/.exec(real)![1];
  assert.is(product.split(/\bselect\b/).length, 2, product);
  assert.not.match(product, ';');
  assert.match(product, 'join "accounts" as "account" on "account"."id" = "products"."account_id"');
});

t('plain operations get generated handlers: filters, sorts and the delete statement are precomputed SQL', () => {
  const files = emitted();
  const ops = files['plain-operations.ts'];
  assert.match(ops, "export const listTestWidgets = plainList<Operations['listTestWidgets']>(resources.TestWidget, {");
  assert.match(ops, `{ param: 'colour', test: 'keyed', sql: ['"test_widgets"."colour"'] }`);
  assert.match(ops, `{ param: 'colours', test: 'equal', sql: ['"test_widgets"."colour"'] }`);
  assert.match(ops, `{ param: 'owner_title', test: 'contains', sql: ['"owner"."title"', '"test_widgets"."name"'] }`);
  assert.match(ops, `{ param: 'created_after', test: 'after', sql: ['"test_widgets"."created_at"'] }`);
  assert.match(ops, "sorts: { created_at: { column: 'test_widgets.created_at', kind: 'timestamp' } }");
  assert.match(ops, `size: { column: 'size_cm', merge: false }`);
  assert.match(ops, `metadata: { column: 'metadata', merge: true }`);
  assert.match(ops, `statement: 'update "test_widgets" set "deleted_at" = date_trunc(\\'milliseconds\\', now()), "updated_at" = date_trunc(\\'milliseconds\\', now()) where "id" = $1'`);
  assert.match(ops, "import { deleteTestWidget as deleteTestWidgetHook } from '../handlers/test_widgets/deleteTestWidget.js';");
  // A summary's keys are its total's enum fields, listed in the order of their values (a nullable one's null first).
  assert.match(ops, "export const testWidgetSummary = plainSummary<Operations['testWidgetSummary']>({");
  assert.match(ops, "table: 'test_widget_totals',");
  assert.match(ops, "keys: [{ field: 'colour', order: ['red', 'green'] }, { field: 'shade', order: [null, 'light', 'dark'] }],");
  // A fill is imported once, under a name no operation has, and given to the list and the retrieve alike.
  assert.match(ops, "import { widgetPopularity as widgetPopularityFill } from '../handlers/test_widgets/widget-fill.js';");
  assert.is(ops.split('fill: widgetPopularityFill,').length, 3, ops);
  const routes = files['routes.ts'];
  assert.match(routes, /import \{ [^}]*listTestWidgets[^}]* \} from ".\/plain-operations.js"/);
  assert.not.match(routes, '../handlers/test_widgets/');
});

t('a plain operation has no handler file; one with a hook gets the hook\'s scaffold, and --check names leftovers', async () => {
  const root = projectCopy({ fixture: PLAIN });
  const first = await runGenerator(root);
  assert.is(first.code, 0, first.stderr);
  assert.not.ok(existsSync(join(root, 'handlers/test_widgets/retrieveTestWidget.ts')));
  const hook = readText(join(root, 'handlers/test_widgets/deleteTestWidget.ts'));
  assert.match(hook, "export const deleteTestWidget: DeleteHook<'deleteTestWidget'> = async () => {");
  assert.match(hook, 'DELETE /test_widgets/{id} (plain delete): Refuses to delete the last widget of an account.');
  writeIn(root, 'handlers/test_widgets/retrieveTestWidget.ts', 'export const retrieveTestWidget = 1;\n');
  const check = await runGenerator(root, '--check');
  assert.is(check.code, 1, check.stdout);
  assert.match(check.stderr, 'declared plain, with no hook of their own (none, or shared code: plain.hook.code); delete:\n  handlers/test_widgets/retrieveTestWidget.ts');
});

/** The retrieve, read also by the widget's maker (a user token), without the account's scopes. */
const OWN = replaceOnce(PLAIN, '    plain: { kind: retrieve, fill: *fill }', '    plain: { kind: retrieve, fill: *fill, own: { user: maker_id } }');

t('a retrieve\'s own names the column of the row\'s user, whose token reaches it (runtime/plain/own-rows.ts)', () => {
  const ops = generate(projectCopy({ fixture: replaceOnce(OWN, "  deleteTestWidget:", `  retrieveOwnTestWidget:
    method: GET
    path: /own_test_widgets/{id}
    summary: Retrieve a test widget of one's own
    auth: [user_token]
    response: { type: TestWidget }
    plain: { kind: retrieve, own: { user: maker_id, only: true }, fill: { code: 'test_widgets/widget-fill#widgetPopularity', fields: [popularity] } }

  deleteTestWidget:`) })).files['plain-operations.ts'];
  assert.match(ops, "own: { user: 'maker_id' },");
  // only: no scopes are declared, none are checked; the row's user alone reads it
  assert.match(ops, "scopes: [],\n  own: { user: 'maker_id', only: true },");
});

/** Lists of rows reached otherwise than by an account's scope: the caller's own widgets, an account's widgets by
 * the path's {id}, and a widget of one's own's widgets (its maker is the caller). */
const LIST_KINDS = replaceOnce(PLAIN, '  retrieveTestWidget:', `  listOwnTestWidgets:
    method: GET
    path: /own_test_widgets
    summary: List one's own test widgets
    auth: [user_token]
    query: { colour: { type: enum, values: [red, green] } }
    response: { list: { of: TestWidget, default_page_size: 10, max_page_size: 50 } }
    plain: { kind: list, own: { user: maker_id, only: true }, filters: { colour: equal } }

  listAccountTestWidgets:
    method: GET
    path: /accounts/{id}/test_widgets
    summary: List an account's test widgets
    scopes: [company:basic:read]
    query: { direction: { type: enum, values: [asc, desc], default: asc } }
    response: { list: { of: TestWidget, default_page_size: 10, max_page_size: 50 } }
    plain: { kind: list, parent: { resource: Account, column: account_id } }

  listTestWidgetSiblings:
    method: GET
    path: /test_widgets/{id}/siblings
    summary: List the widgets of a widget of one's own
    auth: [user_token]
    response: { list: { of: TestWidget, default_page_size: 10, max_page_size: 50 } }
    plain: { kind: list, parent: { resource: TestWidget, column: sibling_of }, own: { user: maker_id, only: true } }

  retrieveTestWidget:`);

t('a list of one\'s own rows, and a list of a parent\'s rows by the path\'s {id} (runtime/plain/list.ts)', () => {
  const ops = generate(projectCopy({ fixture: LIST_KINDS })).files['plain-operations.ts'];
  // own.only: the calling user's rows, no scope
  assert.match(ops, `export const listOwnTestWidgets = plainList<Operations['listOwnTestWidgets']>(resources.TestWidget, {
  scope: null,`);
  assert.match(ops, `  idColumn: 'test_widgets.id',
  own: { user: 'maker_id', only: true },
});`);
  // parent: read as its retrieve reads it (the list's scope; own, the parent's user), its rows by the column
  assert.match(ops, `export const listAccountTestWidgets = plainList<Operations['listAccountTestWidgets']>(resources.TestWidget, {
  parent: { resource: resources.Account, column: 'test_widgets.account_id' },
  scope: 'company:basic:read',`);
  assert.match(ops, `  parent: { resource: resources.TestWidget, column: 'test_widgets.sibling_of' },
  scope: null,`);
});

const problemCases: [string, string, string, ...string[]][] = [
  ['an unknown key in a table suggests the known one',
    replaceOnce(PLAIN, '      soft_delete: deleted_at', '      soft_delet: deleted_at'), 'soft_delet:', 'unknown key "soft_delet"', 'did you mean "soft_delete"?'],
  ['columns naming something that is not a field',
    after(PLAIN, '        size: size_cm\n', '        weight: weight_g\n'), 'weight: weight_g', 'columns.weight', 'not a field of TestWidget'],
  ['a field read two ways',
    replaceOnce(PLAIN, '        secret: { value: null }', "        secret: { value: null, sql: 'now()' }"), 'secret: { value', 'columns.secret', 'read one way'],
  ['a currency column for a field that is not money',
    replaceOnce(PLAIN, '        size: size_cm', '        size: { column: size_cm, currency: c }'), 'size: { column', 'columns.size.currency', 'size is not money'],
  ['a plain operation whose resource has no table',
    replaceOnce(PLAIN, '    table:\n      name: test_widgets\n', '    x-table:\n      name: test_widgets\n'), 'x-table:', 'unknown key "x-table"'],
  ['a kind that does not fit the method',
    replaceOnce(PLAIN, '    plain: { kind: retrieve, fill: *fill }', '    plain: { kind: update, fields: [name] }'), 'kind: update, fields: [name]', 'plain.kind is update', 'not GET'],
  ['a list query parameter without a filter',
    replaceOnce(PLAIN, '        created_after: { after: created_at }\n', ''), '      created_after: timestamp', 'query.created_after', 'has no filter'],
  ['a filter with two tests',
    replaceOnce(PLAIN, '        created_after: { after: created_at }', '        created_after: { after: created_at, before: created_at }'), 'created_after: { after', 'filters.created_after', 'only one of equal, keyed, after, before, contains'],
  ['a filter on a field that is not a column',
    replaceOnce(PLAIN, '        colour: keyed\n', '        colour: { equal: secret }\n'), 'colour: { equal: secret }', 'filters.colour.equal', 'TestWidget.secret is not read from a column'],
  ['a filter left to a hook the operation does not have',
    replaceOnce(PLAIN, '        colour: keyed\n', '        colour: hook\n'), 'colour: hook', 'filters.colour', 'declares no plain.hook'],
  ['several sorts without the order parameter',
    after(PLAIN, '        created_after: { after: created_at }\n', '      sort: [created_at, name]\n'), 'sort: [created_at, name]', 'plain.sort', 'order: { type: enum, values: [created_at, name] }'],
  ['an update whose body field is neither written nor hooked',
    replaceOnce(PLAIN, 'plain: { kind: update, fields: [name, size, metadata] }', 'plain: { kind: update, fields: [name, size] }'), '      metadata: { type: metadata }', 'body.metadata', 'neither written'],
  ['a summary whose total has a field that is neither a key nor a sum',
    after(PLAIN, '      shade: { type: enum, nullable: true, values: [light, dark] }\n', '      label: string\n'), '    response: { type: TestWidgetSummary }', 'TestWidgetTotal.label', 'neither a key'],
  ['a summary filtering by more than its account',
    replaceOnce(PLAIN, '    response: { type: TestWidgetSummary }', '      until: timestamp\n    response: { type: TestWidgetSummary }'), '      until: timestamp', 'query.until', 'totals by account only'],
  ['a fill on a kind that reads no page',
    replaceOnce(PLAIN, 'plain: { kind: delete, hook:', 'plain: { kind: delete, fill: *fill, hook:'), 'plain: { kind: delete, fill', 'plain.fill', 'applies to a plain retrieve, list, transition or action, not a delete'],
  ['a fill setting a field a column holds',
    replaceOnce(PLAIN, 'fields: [popularity] }', 'fields: [popularity, name] }'), "fill: &fill { code:", 'plain.fill.fields.1', 'names name, which is read from a column of test_widgets'],
  ['a fill setting no field of the resource',
    replaceOnce(PLAIN, 'fields: [popularity] }', 'fields: [fame] }'), "fill: &fill { code:", 'plain.fill.fields.0', 'names fame, which is not a field of TestWidget'],
  ['a fill taking a parameter the operation does not have',
    replaceOnce(PLAIN, 'query: [since], fields', 'query: [since, until], fields'), "fill: &fill { code:", 'plain.fill.query.1', 'names until, which is not a query parameter'],
  ['a retrieve query parameter no fill takes',
    replaceOnce(PLAIN, '    query: { since: timestamp }\n', '    query: { since: timestamp, until: timestamp }\n'), '    query: { since: timestamp, until', 'query.until', 'is not taken by the fill'],
  ['a retrieve query parameter without a fill',
    replaceOnce(PLAIN, 'plain: { kind: retrieve, fill: *fill }', 'plain: { kind: retrieve }'), '    query: { since: timestamp }', 'query.since', 'only a fill takes query parameters'],
  ['a keyed filter on a field not read from a column',
    replaceOnce(PLAIN, '        colour: keyed\n', '        colour: { keyed: secret }\n'), 'colour: { keyed: secret }', 'filters.colour.keyed', 'TestWidget.secret is not read from a column'],
  ['a keyed filter on a field that is not text',
    replaceOnce(PLAIN, '        colour: keyed\n', '        colour: { keyed: size }\n'), 'colour: { keyed: size }', 'filters.colour.keyed', 'not a text column field of TestWidget'],
  ['a second keyed filter',
    replaceOnce(PLAIN, '        colours: { equal: colour }', '        colours: { keyed: colour }'), 'colours: { keyed: colour }', 'filters.colours.keyed', 'one filter of a list is keyed'],
  ['an event of another resource',
    replaceOnce(PLAIN, 'plain: { kind: delete, hook:', 'plain: { kind: delete, emits: account.created, hook:'), 'emits: account.created', 'plain.emits', 'carries Account, not TestWidget'],
  ['own on a kind that finds no row of its user',
    replaceOnce(PLAIN, 'plain: { kind: update, fields: [name, size, metadata] }', 'plain: { kind: update, own: { user: maker_id }, fields: [name, size, metadata] }'),
    'plain: { kind: update, own', 'plain.own', 'applies to a plain retrieve, list, delete, transition or action, not a update'],
  ['own naming a field that is not a column',
    replaceOnce(OWN, 'own: { user: maker_id }', 'own: { user: secret }'), 'own: { user: secret }', 'plain.own.user', 'names secret, which is not a column of test_widgets'],
  ['own.only with scopes, which it never checks',
    replaceOnce(replaceOnce(OWN, 'own: { user: maker_id }', 'own: { user: maker_id, only: true }'), '    scopes: [company:basic:read]\n    query: { since',
      '    scopes: [company:basic:read, company:update]\n    query: { since'), 'scopes: [company:basic:read, company:update]', 'scopes', 'never checked'],
  ['own for an operation that takes no user token',
    replaceOnce(OWN, '    query: { since: timestamp }\n', '    auth: [api_key]\n    query: { since: timestamp }\n'), 'own: { user: maker_id }', 'plain.own', 'does not take user tokens'],
  ['a list\'s own without only and without a parent',
    replaceOnce(LIST_KINDS, 'own: { user: maker_id, only: true }, filters', 'own: { user: maker_id }, filters'), 'own: { user: maker_id }, filters', 'plain.own', 'needs only: true'],
  ['a parent list whose path does not end with {id}/<its rows>',
    replaceOnce(LIST_KINDS, '    path: /accounts/{id}/test_widgets', '    path: /accounts/{id}'), 'path: /accounts/{id}', 'path', 'must end with {id}/<its rows>'],
  ['a parent that is not a stored resource',
    replaceOnce(LIST_KINDS, 'parent: { resource: Account,', 'parent: { resource: TestWidgetTotal,'), 'parent: { resource: TestWidgetTotal', 'plain.parent.resource', 'not a stored resource'],
  ['a parent column the table does not hold as a column',
    replaceOnce(LIST_KINDS, 'column: account_id }', 'column: secret }'), 'column: secret }', 'plain.parent.column', 'not a column of test_widgets'],
  ['a parent list naming an account too',
    replaceOnce(LIST_KINDS, '    summary: List an account\'s test widgets\n', '    summary: List an account\'s test widgets\n    account: query.direction\n'),
    'account: query.direction', 'account', 'is not taken'],
  ['a plain list without a scope whose account parameter is optional',
    replaceOnce(PLAIN, '    account: query.account_id\n    scopes: [company:basic:read]\n    query:\n      account_id: { type: id, resource: Account }\n      colour:',
      '    account: query.account_id\n    scopes: []\n    query:\n      account_id: { type: id, resource: Account }\n      colour:'),
    '    plain:', 'plain', 'needs a required account parameter'],
  ['a plain retrieve without scopes, a hook or own.only',
    replaceOnce(PLAIN, '    scopes: [company:basic:read]\n    query: { since', '    scopes: []\n    query: { since'), 'plain: { kind: retrieve, fill', 'plain', 'needs scopes'],
];

for (const [name, text, line, ...words] of problemCases) {
  t(`problem: ${name}`, () => {
    const problems = problemsWith(text);
    problemAt(problems, F, lineOf(text, line), ...words);
  });
}

t('the real spec\'s stored resources and plain operations load without problems', () => {
  const { spec } = loadSpec(projectRoot);
  const plain = spec.operations.filter((o) => o.plain).map((o) => o.id);
  for (const id of ['listProducts', 'retrieveVariant', 'deleteCheckoutConfiguration', 'updateWebhook', 'listMembers']) {
    assert.ok(plain.includes(id), `${id} is plain`);
  }
});

t.run();
