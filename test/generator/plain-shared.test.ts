// What a plain operation declares instead of writing a file: a hook several operations share (`plain.hook: { code,
// does }`), typed against each; and a delete's cascade (`plain.cascade`), the rows of other tables deleted with the
// row. What the generator emits for them, and the problems it reports, each at its file:line:column.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from '../../generator/generate.js';
import { loadSpec } from '../../generator/load-spec.js';
import { projectRoot } from '../../runtime/project-root.js';
import {
  FIXTURE_FILE as F, lineOf, linkNodeModules, problemAt, problemsWith, problemsWithTables, projectCopy, removeCopies, replaceOnce, runGenerator, writeIn,
} from './spec-fixture.js';

const t = suite('generator: shared hooks and cascades of plain operations');
t.after(() => removeCopies());

/** Two moves sharing one hook, a list with a hook of shared code, and a delete whose gadgets and tags go with it:
 * gadgets soft-deleted (their stored resource soft-deletes), tags deleted (no stored resource soft-deletes them). */
const SHARED = `state_machines:
  TestGadget:
    field: status
    transitions:
      pause: { from: [active], to: paused }
      unpause: { from: [paused], to: active }

resources:
  TestGadget:
    prefix: tgdt_
    object: test_gadget
    table: { name: test_gadgets, soft_delete: deleted_at }
    fields:
      id: { type: id, resource: TestGadget }
      status: { type: enum, values: [active, paused] }
      created_at: timestamp

  TestWidget:
    prefix: twgt_
    object: test_widget
    table: { name: test_widgets, soft_delete: deleted_at }
    fields:
      id: { type: id, resource: TestWidget }
      name: string
      created_at: timestamp

operations:
  pauseTestGadget:
    method: POST
    path: /test_gadgets/{id}/pause
    summary: Pause a test gadget
    scopes: [company:update]
    response: { type: TestGadget }
    plain: { kind: transition, machine: TestGadget, transition: pause, hook: { code: 'test_widgets/gadget-moves#widgetFollows', does: The gadget's widget hears of the move. } }

  unpauseTestGadget:
    method: POST
    path: /test_gadgets/{id}/unpause
    summary: Resume a test gadget
    scopes: [company:update]
    response: { type: TestGadget }
    plain: { kind: transition, machine: TestGadget, transition: unpause, hook: { code: 'test_widgets/gadget-moves#widgetFollows', does: The gadget's widget hears of the move. } }

  listTestGadgets:
    method: GET
    path: /test_gadgets
    summary: List test gadgets
    scopes: [company:basic:read]
    query:
      widget_id: { type: id, resource: TestWidget }
    response: { list: { of: TestGadget, default_page_size: 10, max_page_size: 50 } }
    plain: { kind: list, filters: { widget_id: hook }, hook: { code: 'test_widgets/gadget-lists#ofOneWidget', does: Loads the widget and narrows to its gadgets. } }

  deleteTestWidget:
    method: DELETE
    path: /test_widgets/{id}
    summary: Delete a test widget
    scopes: [company:update]
    response: { deleted: TestWidget }
    plain: { kind: delete, cascade: [{ table: test_gadgets, column: widget_id }, { table: test_widget_tags, column: widget_id }] }
`;

/** migrations/tables.json for the fixture's tables (what `npm run tables` would write for them). */
const TABLES = JSON.stringify({
  views: [],
  tables: {
    test_gadgets: { id: 'text', account_id: 'text', widget_id: 'text', status: 'text', deleted_at: 'timestamptz?', created_at: 'timestamptz', updated_at: 'timestamptz' },
    test_widgets: { id: 'text', account_id: 'text', name: 'text', deleted_at: 'timestamptz?', created_at: 'timestamptz', updated_at: 'timestamptz' },
    test_widget_tags: { widget_id: 'text', tag: 'text' },
  },
});

const NOW = "date_trunc(\\'milliseconds\\', now())";

t('a shared hook is imported once and typed against each operation naming it; a cascade is precomputed SQL', () => {
  const ops = generate(projectCopy({ fixture: SHARED })).files['plain-operations.ts'];
  assert.match(ops, "import { widgetFollows as widgetFollowsSharedHook } from '../handlers/test_widgets/gadget-moves.js';");
  assert.is(ops.split("from '../handlers/test_widgets/gadget-moves.js'").length, 2, ops);
  assert.match(ops, "import type { ListHook, TransitionHook } from './plain-hooks.js';");
  assert.match(ops, "const pauseTestGadgetHook: TransitionHook<'pauseTestGadget'> = widgetFollowsSharedHook;");
  assert.match(ops, "const unpauseTestGadgetHook: TransitionHook<'unpauseTestGadget'> = widgetFollowsSharedHook;");
  assert.match(ops, "const listTestGadgetsHook: ListHook<'listTestGadgets'> = ofOneWidgetSharedHook;");
  assert.match(ops, '  hook: pauseTestGadgetHook,\n');
  assert.not.match(ops, 'handlers/test_widgets/pauseTestGadget.js');
  // The cascade runs in order, before the row's own statement: a soft-deleting table's live rows are stamped, others deleted.
  assert.match(ops, `  cascade: ['update "test_gadgets" set "deleted_at" = ${NOW}, "updated_at" = ${NOW} where "widget_id" = $1 and "deleted_at" is null', `
    + `'delete from "test_widget_tags" where "widget_id" = $1'],\n`);
});

t('an operation with a shared hook has no file: none is scaffolded, and --check names a leftover', async () => {
  const root = projectCopy({ fixture: SHARED });
  const first = await runGenerator(root);
  assert.is(first.code, 0, first.stderr);
  for (const id of ['pauseTestGadget', 'unpauseTestGadget', 'listTestGadgets', 'deleteTestWidget']) {
    assert.not.ok(existsSync(join(root, `handlers/test_widgets/${id}.ts`)), `${id}.ts was scaffolded`);
  }
  writeIn(root, 'handlers/test_widgets/pauseTestGadget.ts', 'export const pauseTestGadget = 1;\n');
  const check = await runGenerator(root, '--check');
  assert.is(check.code, 1, check.stdout);
  assert.match(check.stderr, 'with no hook of their own (none, or shared code: plain.hook.code); delete:\n  handlers/test_widgets/pauseTestGadget.ts');
});

t('with migrations/tables.json, a cascade naming its tables and columns loads', () => {
  const root = projectCopy({ fixture: SHARED });
  writeIn(root, 'migrations/tables.json', TABLES);
  loadSpec(root);
});

const problemCases: [string, string, string, ...string[]][] = [
  ['a shared hook whose code is not module#export',
    replaceOnce(SHARED, "hook: { code: 'test_widgets/gadget-lists#ofOneWidget'", "hook: { code: 'gadget-lists.ofOneWidget'"), "code: 'gadget-lists.ofOneWidget'", 'plain.hook.code'],
  ['a shared hook that does not say what it does',
    replaceOnce(SHARED, ", does: Loads the widget and narrows to its gadgets. }", ' }'), 'ofOneWidget', 'plain.hook', 'does'],
  ['a cascade on a kind other than delete',
    replaceOnce(SHARED, 'plain: { kind: list, filters', 'plain: { kind: list, cascade: [{ table: test_gadgets, column: widget_id }], filters'), 'kind: list, cascade', 'plain.cascade', 'applies to a plain delete, not a list'],
  ['a cascade entry without its column',
    replaceOnce(SHARED, '{ table: test_widget_tags, column: widget_id }', '{ table: test_widget_tags }'), '{ table: test_widget_tags }', 'plain.cascade.1', 'column'],
];

for (const [name, text, line, ...words] of problemCases) {
  t(`problem: ${name}`, () => {
    problemAt(problemsWith(text), F, lineOf(text, line), ...words);
  });
}

const tableCases: [string, string, string, ...string[]][] = [
  ['a cascade naming a table no migration creates',
    replaceOnce(SHARED, '{ table: test_widget_tags,', '{ table: test_widget_labels,'), 'test_widget_labels', 'plain.cascade.1.table', 'names test_widget_labels, which no migration creates'],
  ['a cascade naming a column its table lacks',
    replaceOnce(SHARED, '{ table: test_gadgets, column: widget_id }', '{ table: test_gadgets, column: owner_id }'), 'column: owner_id', 'plain.cascade.0.column', 'names owner_id, which is not a column of test_gadgets'],
];

for (const [name, text, line, ...words] of tableCases) {
  t(`problem: ${name}`, () => {
    problemAt(problemsWithTables(text, TABLES), F, lineOf(text, line), ...words);
  });
}

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, esModuleInterop: true,
    skipLibCheck: true, noEmit: true, types: ['node'],
  },
  files: ['generated/plain-operations.ts'],
});

/** The shared hooks: the list's is fine; the move's takes a number where each operation gives its input. */
const GADGET_LISTS = `import type { Knex } from 'knex';
export const ofOneWidget = (rows: Knex.QueryBuilder, query: { widget_id?: string }) => { if (query.widget_id) rows.where('widget_id', query.widget_id); };
`;
const GADGET_MOVES = `export const widgetFollows = async (_row: unknown, input: number) => { void input; };
`;

t('a shared hook that does not fit an operation naming it fails the type-check at that operation\'s line', async () => {
  const root = projectCopy({ fixture: SHARED, with: ['runtime'] });
  linkNodeModules(root);
  for (const [name, text] of Object.entries(generate(root).files)) writeIn(root, `generated/${name}`, text);
  writeIn(root, 'handlers/test_widgets/gadget-lists.ts', GADGET_LISTS);
  writeIn(root, 'handlers/test_widgets/gadget-moves.ts', GADGET_MOVES);
  writeIn(root, 'tsconfig.json', TSCONFIG);
  const output = await new Promise<string>((resolve) => {
    execFile(join(projectRoot, 'node_modules/.bin/tsc'), ['-p', join(root, 'tsconfig.json'), '--pretty', 'false'], { cwd: root },
      (_error, stdout, stderr) => resolve(stdout + stderr));
  });
  const ops = generate(root).files['plain-operations.ts'].split('\n');
  const line = (text: string) => ops.findIndex((l) => l.includes(text)) + 1;
  const errors = output.split('\n').filter((l) => / error TS\d+/.test(l));
  const at = (n: number) => `generated/plain-operations.ts(${n},`;
  assert.ok(errors.some((e) => e.startsWith(at(line("const pauseTestGadgetHook: TransitionHook<'pauseTestGadget'>")))), output);
  assert.ok(errors.some((e) => e.startsWith(at(line("const unpauseTestGadgetHook: TransitionHook<'unpauseTestGadget'>")))), output);
  // Only those: the list's hook fits, and nothing else in the generated code is wrong.
  assert.is(errors.length, 2, output);
});

t('the real spec\'s shared hooks and cascades', () => {
  const { spec } = loadSpec(projectRoot);
  const plain = (id: string) => spec.operations.find((o) => o.id === id)!.plain!;
  for (const id of ['pauseAd', 'unpauseAdGroup', 'pauseAdCampaign', 'listAppBuilds']) assert.type(plain(id).hook, 'object', id);
  for (const id of ['deleteProduct', 'deleteAdGroup', 'deleteAdCampaign', 'deleteExperience']) assert.ok(plain(id).cascade, id);
});

t.run();
