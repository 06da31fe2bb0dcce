// A list filter through a related table (`filters: { x: { exists: { table, on, equal } } }`): what the generator
// emits for it (one EXISTS subquery, the value its one placeholder), and the problems it reports, each at its
// file:line:column; with migrations/tables.json, the tables and columns it names are checked as a cascade's are.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { generate } from '../../generator/generate.js';
import { loadSpec } from '../../generator/load-spec.js';
import {
  FIXTURE_FILE as F, lineOf, problemAt, problemsWith, problemsWithTables, projectCopy, removeCopies, replaceOnce, writeIn,
} from './spec-fixture.js';

const t = suite('generator: list filters through a related table');
t.after(() => removeCopies());

/** Widgets listed by a tag they carry (the tags name the widget) and by the name of the gadget they belong to (the
 * widget names the gadget), where an empty name narrows nothing. */
const EXISTS = `resources:
  TestGadget:
    prefix: tgdt_
    object: test_gadget
    table: { name: test_gadgets }
    fields:
      id: { type: id, resource: TestGadget }
      created_at: timestamp

  TestWidget:
    prefix: twgt_
    object: test_widget
    table: { name: test_widgets }
    fields:
      id: { type: id, resource: TestWidget }
      gadget_id: { type: id, resource: TestGadget }
      created_at: timestamp

operations:
  listTestWidgets:
    method: GET
    path: /test_widgets
    summary: List test widgets
    scopes: [company:basic:read]
    query:
      tag: { type: string, max_length: 20 }
      gadget_name: { type: string, max_length: 20 }
    response: { list: { of: TestWidget, default_page_size: 10, max_page_size: 50 } }
    plain:
      kind: list
      filters:
        tag: { exists: { table: test_widget_tags, on: widget_id, equal: tag } }
        gadget_name: { exists: { table: test_gadgets, on: { id: gadget_id }, equal: name, empty: unfiltered } }
`;

/** migrations/tables.json for the fixture's tables (what `npm run tables` would write for them). */
const TABLES = JSON.stringify({
  views: [],
  tables: {
    test_gadgets: { id: 'text', account_id: 'text', name: 'text', created_at: 'timestamptz', updated_at: 'timestamptz' },
    test_widgets: { id: 'text', account_id: 'text', gadget_id: 'text', created_at: 'timestamptz', updated_at: 'timestamptz' },
    test_widget_tags: { widget_id: 'text', tag: 'text' },
  },
});

t('an exists filter is one EXISTS subquery over the related table, either way the two rows name each other', () => {
  const ops = generate(projectCopy({ fixture: EXISTS })).files['plain-operations.ts'];
  assert.match(ops, `{ param: 'tag', test: 'exists', sql: ['exists (select 1 from "test_widget_tags" as "related" `
    + `where "related"."widget_id" = "test_widgets"."id" and "related"."tag" = ?)'] },`);
  assert.match(ops, `{ param: 'gadget_name', test: 'exists', sql: ['exists (select 1 from "test_gadgets" as "related" `
    + `where "related"."id" = "test_widgets"."gadget_id" and "related"."name" = ?)'], emptyUnfiltered: true },`);
  const list = ops.slice(ops.indexOf('export const listTestWidgets ='));
  assert.not.match(list.slice(0, list.indexOf('\n});')), 'hook:');
});

t('with migrations/tables.json, an exists filter naming its tables and columns loads', () => {
  const root = projectCopy({ fixture: EXISTS });
  writeIn(root, 'migrations/tables.json', TABLES);
  loadSpec(root);
});

const problemCases: [string, string, string, ...string[]][] = [
  ['an exists filter without the column holding the value',
    replaceOnce(EXISTS, 'on: widget_id, equal: tag }', 'on: widget_id }'), 'tag: { exists', 'filters.tag.exists', 'equal'],
  ['an exists filter whose on names two pairs',
    replaceOnce(EXISTS, 'on: { id: gadget_id }', 'on: { id: gadget_id, name: id }'), 'gadget_name: { exists', 'filters.gadget_name.exists.on'],
  ['an exists filter on a list parameter',
    replaceOnce(EXISTS, '      tag: { type: string, max_length: 20 }', '      tag: { type: array, items: { type: string, max_length: 20 } }'),
    'tag: { exists', 'filters.tag.exists', 'a related row is tested for one value'],
  ['empty: unfiltered on a parameter that is no text',
    replaceOnce(EXISTS, '      gadget_name: { type: string, max_length: 20 }', '      gadget_name: { type: integer, min: 0, max: 9 }'),
    'gadget_name: { exists', 'filters.gadget_name.exists.empty', 'never empty'],
];

for (const [name, text, line, ...words] of problemCases) {
  t(`problem: ${name}`, () => {
    problemAt(problemsWith(text), F, lineOf(text, line), ...words);
  });
}

const tableCases: [string, string, string, ...string[]][] = [
  ['an exists filter naming a table no migration creates',
    replaceOnce(EXISTS, 'table: test_widget_tags', 'table: test_widget_labels'), 'tag: { exists', 'filters.tag.exists.table', 'names test_widget_labels, which no migration creates'],
  ['an exists filter whose related column is not one of its table',
    replaceOnce(EXISTS, 'on: widget_id', 'on: widget'), 'tag: { exists', 'filters.tag.exists.on', 'names widget, which is not a column of test_widget_tags'],
  ['an exists filter whose value column is not one of its table',
    replaceOnce(EXISTS, 'equal: name', 'equal: title'), 'gadget_name: { exists', 'filters.gadget_name.exists.equal', 'names title, which is not a column of test_gadgets'],
  ['an exists filter naming a column the listed table lacks',
    replaceOnce(EXISTS, 'on: { id: gadget_id }', 'on: { id: gadget }'), 'gadget_name: { exists', 'filters.gadget_name.exists.on', 'names gadget, which is not a column of test_widgets'],
];

for (const [name, text, line, ...words] of tableCases) {
  t(`problem: ${name}`, () => {
    problemAt(problemsWithTables(text, TABLES), F, lineOf(text, line), ...words);
  });
}

t.run();
