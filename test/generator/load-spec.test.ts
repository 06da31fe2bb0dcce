import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadSpec } from '../../generator/load-spec.js';
import {
  FIXTURE, FIXTURE_FILE, assertNoRawAjv, lineOf, problemAt, problemsWith, projectCopy, removeCopies, replaceOnce,
} from './spec-fixture.js';

const t = suite('generator: loadSpec problem reports');
t.after(() => removeCopies());

const F = FIXTURE_FILE;

t('the fixture spec (real spec plus the fixture area) loads cleanly', () => {
  const { spec } = loadSpec(projectCopy());
  const op = spec.operations.find((o) => o.id === 'updateTestWidget')!;
  assert.is(op.handler, 'test_widgets/updateTestWidget');
  assert.equal(Object.keys(op.path_params), ['id']);
  assert.match(op.where, new RegExp(`^${F}:${lineOf(FIXTURE, 'updateTestWidget:')}:3$`));
});

t('an unknown key in an operation', () => {
  const text = replaceOnce(FIXTURE, '    summary: Retrieve a test widget\n', '    summary: Retrieve a test widget\n    colour: red\n');
  const problems = problemsWith(text);
  const p = problemAt(problems, F, lineOf(text, 'colour: red'), 'operations.retrieveTestWidget', 'unknown key "colour"');
  assert.match(p, /:5: /);
});

t('a misspelt key suggests the nearest known one; a key that is no typo suggests nothing', () => {
  const text = replaceOnce(FIXTURE, '    summary: Retrieve a test widget\n', '    sumary: Retrieve a test widget\n');
  const problems = problemsWith(text);
  problemAt(problems, F, lineOf(text, 'sumary: Retrieve'), 'unknown key "sumary"; did you mean "summary"?');
  const unrelated = problemsWith(replaceOnce(FIXTURE, '    summary: Retrieve a test widget\n', '    summary: Retrieve a test widget\n    colour: red\n'));
  assert.ok(unrelated.some((p) => p.endsWith('unknown key "colour"')), unrelated.join('\n'));
});

t('an instruction in a version change that targets nothing is reported at its file:line:col', async () => {
  const { deriveVersions, VersionProblems } = await import('../../generator/versions.js');
  const { addVersion } = await import('./version-fixture.js');
  const root = projectCopy();
  addVersion(root, '2026-10-01', {
    'accounts-gain-weight': 'description: Accounts gained a weight.\ninstructions:\n  - field_added: { schema: Account, field: weight }\n',
  });
  const { spec } = loadSpec(root);
  try {
    deriveVersions(spec);
    assert.unreachable('the instruction targets a field that does not exist');
  } catch (e) {
    assert.instance(e, VersionProblems);
    const [problem] = (e as InstanceType<typeof VersionProblems>).problems;
    assert.match(problem, /^spec\/versions\/2026-10-01\/accounts-gain-weight\.yaml:3:5: 2026-10-01 change accounts-gain-weight .*Account\.weight, which does not exist/, problem);
  }
});

t('a bad field type shorthand', () => {
  const text = replaceOnce(FIXTURE, '      size: integer?', '      size: integr?');
  const problems = problemsWith(text);
  problemAt(problems, F, lineOf(text, 'size: integr?'), 'resources.TestWidget.fields.size', '"integr?"', 'not a type');
  assert.is(problems.length, 1, problems.join('\n'));
});

t('a field type that is not a type name, in the mapping form', () => {
  const text = replaceOnce(FIXTURE, '      size: integer?', '      size: { type: int }');
  const problems = problemsWith(text);
  problemAt(problems, F, lineOf(text, 'type: int }'), 'resources.TestWidget.fields.size.type', '"int"', '"integer"');
  assert.is(problems.length, 1, problems.join('\n'));
});

t('an enum without values, and one with an empty list of values', () => {
  const missing = replaceOnce(FIXTURE, '      colour: { type: enum, values: [red, green] }\n      size', '      colour: { type: enum }\n      size');
  let problems = problemsWith(missing);
  problemAt(problems, F, lineOf(missing, 'colour: { type: enum }'), 'resources.TestWidget.fields.colour', '"values"');
  assert.is(problems.length, 1, `one problem, not one per anyOf branch:\n${problems.join('\n')}`);

  const empty = replaceOnce(FIXTURE, '      colour: { type: enum, values: [red, green] }\n      size', '      colour: { type: enum, values: [] }\n      size');
  problems = problemsWith(empty);
  problemAt(problems, F, lineOf(empty, 'values: []'), 'colour.values', 'must not be empty');
  assert.is(problems.length, 1, problems.join('\n'));
});

t('a response with both type and list', () => {
  const text = replaceOnce(FIXTURE, '    response: { type: TestWidget }\n    errors: [401, 404]',
    '    response: { type: TestWidget, list: { of: TestWidget, default_page_size: 1, max_page_size: 2 } }\n    errors: [401, 404]');
  const problems = problemsWith(text);
  problemAt(problems, F, lineOf(text, 'response: { type: TestWidget, list'), 'operations.retrieveTestWidget.response', 'exactly one of type, list');
  assert.is(problems.length, 1, problems.join('\n'));
});

t('a reference to an unknown resource', () => {
  const text = replaceOnce(FIXTURE, 'ref: TestWidget }', 'ref: TestWidgit }');
  const problems = problemsWith(text);
  problemAt(problems, F, lineOf(text, 'TestWidgit'), 'resources.TestGadget.fields.widget', 'TestWidgit', 'not a resource or component');
});

t('an unknown resource as an operation response', () => {
  const text = replaceOnce(FIXTURE, '    response: { type: TestWidget }\n    errors: [401, 404]', '    response: { type: TestWidgets }\n    errors: [401, 404]');
  const problems = problemsWith(text);
  problemAt(problems, F, lineOf(text, 'TestWidgets }'), 'operations.retrieveTestWidget.response.type', 'TestWidgets');
});

t('the same id prefix on two resources', () => {
  const text = replaceOnce(FIXTURE, 'prefix: tgdt_', 'prefix: twgt_');
  const problems = problemsWith(text);
  const line = text.split('\n').findIndex((l, i) => i > lineOf(text, 'TestGadget:') - 1 && l.includes('prefix: twgt_')) + 1;
  problemAt(problems, F, line, 'TestWidget and TestGadget', 'twgt_');
});

t('a path parameter declared in path_params but absent from the path', () => {
  const text = replaceOnce(FIXTURE, '    path: /test_widgets/{id}\n    summary: Retrieve',
    '    path: /test_widgets/{id}\n    path_params:\n      widget_id: { type: string, description: The widget }\n    summary: Retrieve');
  const problems = problemsWith(text);
  problemAt(problems, F, lineOf(text, 'widget_id:'), 'path_params', '"widget_id"', '/test_widgets/{id}');
});

t('secret: true marks path parameters only: on a body field it is reported', () => {
  const text = replaceOnce(FIXTURE, '      colour: { type: enum, values: [red, green] }\n    response:', '      colour: { type: enum, values: [red, green], secret: true }\n    response:');
  const problems = problemsWith(text);
  problemAt(problems, F, lineOf(text, 'secret: true'), 'secret marks path parameters only');
  const declared = replaceOnce(FIXTURE, '    path: /test_widgets/{id}\n    summary: Retrieve',
    '    path: /test_widgets/{id}\n    path_params:\n      id: { type: string, secret: true }\n    summary: Retrieve');
  const { spec } = loadSpec(projectCopy({ fixture: declared }));
  assert.is(spec.operations.find((o) => o.id === 'retrieveTestWidget')!.path_params.id.secret, true);
});

t('a handler name used by two operations', () => {
  const text = replaceOnce(FIXTURE, '    summary: Update a test widget\n', '    summary: Update a test widget\n    handler: test_widgets/retrieveTestWidget\n');
  const problems = problemsWith(text);
  problemAt(problems, F, lineOf(text, 'handler: test_widgets'), 'updateTestWidget', 'test_widgets/retrieveTestWidget', 'also used by retrieveTestWidget');
});

t('an unknown scope', () => {
  const text = replaceOnce(FIXTURE, 'scopes: [company:update]', 'scopes: [company:updat]');
  const problems = problemsWith(text);
  problemAt(problems, F, lineOf(text, 'company:updat]'), 'operations.updateTestWidget.scopes', 'company:updat', 'not in spec/api.yaml scopes');
});

t('a successor naming a parameter the deprecated path lacks; aliases.lookup on a parameter that is no id', () => {
  const text = replaceOnce(FIXTURE, '    summary: Retrieve a test widget\n',
    "    summary: Retrieve a test widget\n    deprecated: { successor: '/widgets/{widget}' }\n    path_params:\n      id: { type: string, aliases: { lookup: { table: test_widgets, column: name } } }\n");
  const problems = problemsWith(text);
  problemAt(problems, F, lineOf(text, 'deprecated: { successor'), 'names {widget}', 'not a parameter of /test_widgets/{id}');
  problemAt(problems, F, lineOf(text, 'id: { type: string, aliases'), 'aliases.lookup needs type id');
});

t('a duplicate YAML key', () => {
  const text = replaceOnce(FIXTURE, '    summary: List test widgets\n', '    summary: List test widgets\n    summary: List them\n');
  const problems = problemsWith(text);
  problemAt(problems, F, lineOf(text, 'summary: List them'), '"summary"', 'twice');
});

t('a YAML syntax error', () => {
  const text = replaceOnce(FIXTURE, '    summary: List test widgets\n', '    summary: [List test widgets\n');
  const problems = problemsWith(text);
  assert.ok(problems.length >= 1);
  for (const p of problems) assert.match(p, new RegExp(`^${F}:\\d+:\\d+: YAML syntax error: \\w`));
  const first = Number(/:(\d+):/.exec(problems[0])![1]);
  assert.ok(Math.abs(first - lineOf(text, '[List test')) <= 1, problems.join('\n'));
});

t('other mistakes each read as one sentence at the right line, never a dump of the surrounding YAML', () => {
  const cases: { from: string; to: string; line: string; words: string[] }[] = [
    { from: '      name: string\n', to: '      Name: string\n', line: 'Name: string', words: ['"Name"', 'not a valid name', 'snake_case'] },
    { from: '  listTestWidgets:\n', to: '  list-test-widgets:\n', line: 'list-test-widgets:', words: ['"list-test-widgets"', 'camelCase'] },
    { from: '    response: { type: TestWidget }\n    errors: [401, 404]', to: '    response: { type: TestWidget, status: 99 }\n    errors: [401, 404]',
      line: 'status: 99', words: ['response.status is 99', 'at least 200'] },
    { from: '      size: integer?\n', to: '      size: 5\n', line: 'size: 5', words: ['fields.size is 5', 'not a type'] },
    { from: '      size: integer?\n', to: '      size: { type: array }\n', line: 'type: array }', words: ['fields.size', '"items"'] },
    { from: '      size: integer?\n', to: '      size: { type: array, items: strng }\n', line: 'items: strng', words: ['size.items is "strng"', 'not a type'] },
    { from: '    path: /test_widgets\n', to: '    path: test_widgets\n', line: 'path: test_widgets', words: ['"test_widgets"', '/accounts/{id}'] },
    { from: '    scopes: [company:update]\n', to: '    scopes: [company:update]\n    account: path.account_id\n', line: 'account: path.account_id',
      words: ['account reads path.account_id', 'does not declare'] },
    { from: '    summary: List test widgets\n', to: '    summary: List test widgets\n    body: { x: string }\n', line: 'body: { x: string }',
      words: ['GET operation cannot take a body'] },
  ];
  for (const c of cases) {
    const text = replaceOnce(FIXTURE, c.from, c.to);
    const problems = problemsWith(text);
    assert.is(problems.length, 1, `${c.to}:\n${problems.join('\n')}`);
    problemAt(problems, F, lineOf(text, c.line), ...c.words);
    assert.not.match(problems[0], '{"', `a dump of YAML in: ${problems[0]}`);
  }
});

t('several schema problems, in two files, are reported at once', () => {
  let text = replaceOnce(FIXTURE, '      size: integer?', '      size: integr?');
  text = replaceOnce(text, '    summary: Retrieve a test widget\n', '    summary: Retrieve a test widget\n    colour: red\n');
  text = replaceOnce(text, '    method: PATCH', '    method: PUSH');
  const problems = problemsWith(text, (api) => `${api.trimEnd()}\nextra_section: 1\n`);
  assertNoRawAjv(problems);
  problemAt(problems, F, lineOf(text, 'integr?'), 'not a type');
  problemAt(problems, F, lineOf(text, 'colour: red'), 'unknown key "colour"');
  problemAt(problems, F, lineOf(text, 'method: PUSH'), '"PUSH"', '"PATCH"');
  assert.ok(problems.some((p) => /^spec\/api\.yaml:\d+:\d+: the file has an unknown key "extra_section"$/.test(p)), problems.join('\n'));
});

t('several reference problems are reported at once', () => {
  let text = replaceOnce(FIXTURE, 'scopes: [company:update]', 'scopes: [company:updat]');
  text = replaceOnce(text, 'ref: TestWidget }', 'ref: TestWidgit }');
  text = replaceOnce(text, '    summary: Update a test widget\n', '    summary: Update a test widget\n    handler: test_widgets/retrieveTestWidget\n');
  const problems = problemsWith(text).filter((p) => p.startsWith(F));
  assert.is(problems.length, 3, problems.join('\n'));
  problemAt(problems, F, lineOf(text, 'company:updat]'), 'company:updat');
  problemAt(problems, F, lineOf(text, 'TestWidgit'), 'TestWidgit');
  problemAt(problems, F, lineOf(text, 'handler: test_widgets'), 'also used by');
});

/** A deprecated route served by another operation's handler, as the fixture area's last operation. */
const aliasOf = (target: string, lines = '    response: { type: TestWidget }\n') => `${FIXTURE}
  retrieveOldTestWidget:
    method: GET
    path: /old_test_widgets/{id}
    summary: Retrieve a test widget (deprecated; use GET /test_widgets/{id})
    deprecated: { successor: '/test_widgets/{id}' }
    same_as: ${target}
    scopes: [company:basic:read]
${lines}`;

t('an alias takes its target\'s handler; a target that is missing, an alias, or of another shape is reported at same_as', () => {
  const { spec } = loadSpec(projectCopy({ fixture: aliasOf('retrieveTestWidget') }));
  assert.is(spec.operations.find((o) => o.id === 'retrieveOldTestWidget')!.handler, 'test_widgets/retrieveTestWidget');

  let text = aliasOf('retrieveTestWidgit');
  problemAt(problemsWith(text), F, lineOf(text, 'same_as:'), 'retrieveTestWidgit, which is not an operation', 'did you mean retrieveTestWidget?');
  text = aliasOf('retrieveOldTestWidget');
  problemAt(problemsWith(text), F, lineOf(text, 'same_as:'), 'itself an alias');
  text = aliasOf('listTestWidgets', '    response: { type: TestWidget }\n');
  let problems = problemsWith(text);
  problemAt(problems, F, lineOf(text, 'same_as:'), 'responds with TestWidget, listTestWidgets with a list of TestWidget');
  problemAt(problems, F, lineOf(text, 'same_as:'), 'its path parameters ({id}) are not listTestWidgets\'s (none)');
  text = aliasOf('updateTestWidget', '    response: { type: TestWidget }\n    body:\n      name: { type: string }\n');
  problems = problemsWith(text);
  problemAt(problems, F, lineOf(text, 'same_as:'), 'takes body.name, which updateTestWidget does not take in the same form');
  problemAt(problems, F, lineOf(text, 'same_as:'), 'does not require company:update');
});

t.run();
