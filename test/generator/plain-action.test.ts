// Plain actions (`plain: { kind: action }`): an operation on one row whose rule is all in its hook; the runtime finds,
// locks, re-reads and renders. And declared finders (`plain.find`), which replace the runtime's by-id read. Problems
// are reported at their file:line:column.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from '../../generator/generate.js';
import { loadSpec } from '../../generator/load-spec.js';
import { projectRoot } from '../../runtime/project-root.js';
import {
  FIXTURE_FILE as F, lineOf, problemAt, problemsWith, projectCopy, readText, removeCopies, replaceOnce, runGenerator,
} from './spec-fixture.js';

const t = suite('generator: plain actions and finders');
t.after(() => removeCopies());

const ACTIONS = `resources:
  TestGadget:
    prefix: tgdt_
    object: test_gadget
    table: { name: test_gadgets }
    fields:
      id: { type: id, resource: TestGadget }
      status: { type: enum, values: [active, spent] }
      maker_id: string?
      created_at: timestamp

operations:
  spendTestGadget:
    method: POST
    path: /test_gadgets/{id}/spend
    summary: Spend a test gadget
    scopes: [company:update]
    body:
      amount: { type: integer, min: 1, max: 1000 }
    response: { type: TestGadget }
    plain: { kind: action, emits: test_gadget.spent, hook: { code: 'test_widgets/gadget-rules#spend', does: 'spends the amount on the gadget' } }

  polishTestGadget:
    method: POST
    path: /test_gadgets/{id}/polish
    summary: Polish a test gadget
    scopes: [company:update]
    response: { type: TestGadget }
    plain: { kind: action, hook: Polishes the gadget and records who did. }

  renameTestGadget:
    method: POST
    path: /test_gadgets/{id}/rename
    summary: Rename a test gadget found by its name too
    scopes: [company:update]
    response: { type: TestGadget }
    plain:
      kind: action
      find: { code: 'test_widgets/find-gadget#findGadget', does: 'by tgdt_ id or by its name, locked' }
      hook: { code: 'test_widgets/gadget-rules#rename', does: 'renames the gadget' }

events:
  test_gadget.spent: { schema: TestGadget, description: A test gadget was spent. }
`;

t('a plain action gets a generated handler: the resource, the scopes, the hook and the event', () => {
  const ops = generate(projectCopy({ fixture: ACTIONS })).files['plain-operations.ts'];
  assert.match(ops, `export const spendTestGadget = plainAction<Operations['spendTestGadget']>(resources.TestGadget, {
  scopes: ['company:update'],
  emits: 'test_gadget.spent',
  hook: spendTestGadgetHook,
});`);
  assert.match(ops, "const spendTestGadgetHook: ActionHook<'spendTestGadget'> = spendSharedHook;");
  assert.match(ops, /import \{ plainAction \} from '[^']*runtime\/plain\/action.js';/);
});

t('a declared finder is imported and handed to the factory in place of the by-id read', () => {
  const ops = generate(projectCopy({ fixture: ACTIONS })).files['plain-operations.ts'];
  assert.match(ops, "import { findGadget as findGadgetFinder } from '../handlers/test_widgets/find-gadget.js';");
  assert.match(ops, '  find: findGadgetFinder,\n');
});

t('an action with its own hook gets the hook\'s scaffold, typed ActionHook; one with a shared hook has no file', async () => {
  const root = projectCopy({ fixture: ACTIONS });
  const run = await runGenerator(root);
  assert.is(run.code, 0, run.stderr);
  const hook = readText(join(root, 'handlers/test_widgets/polishTestGadget.ts'));
  assert.match(hook, "export const polishTestGadget: ActionHook<'polishTestGadget'> = async () => {");
  assert.not.ok(existsSync(join(root, 'handlers/test_widgets/spendTestGadget.ts')));
});

const problemCases: [string, string, string, ...string[]][] = [
  ['an action without a hook',
    replaceOnce(ACTIONS, 'plain: { kind: action, hook: Polishes the gadget and records who did. }', 'plain: { kind: action }'),
    'plain: { kind: action }', 'plain', 'needs a hook'],
  ['an action answering GET',
    replaceOnce(ACTIONS, '    method: POST\n    path: /test_gadgets/{id}/polish', '    method: GET\n    path: /test_gadgets/{id}/polish'),
    'plain: { kind: action, hook: Polishes', 'plain.kind is action', 'not GET'],
  ['an action on a collection',
    replaceOnce(ACTIONS, 'path: /test_gadgets/{id}/polish', 'path: /test_gadgets/polish_all'), 'polish_all', 'path', 'must end with {id}'],
  ['a query parameter no fill takes',
    replaceOnce(ACTIONS, '    summary: Polish a test gadget\n', '    summary: Polish a test gadget\n    query:\n      shine: { type: integer }\n'),
    '      shine:', 'query.shine', 'not taken by a plain action'],
  ['find with own',
    replaceOnce(ACTIONS, "      kind: action\n      find:", "      kind: action\n      own: { user: maker_id }\n      find:"),
    '      own: { user: maker_id }', 'plain.own', 'not taken with find'],
  ['find on a list',
    replaceOnce(ACTIONS, '\nevents:\n', `
  listTestGadgets:
    method: GET
    path: /test_gadgets
    summary: List test gadgets
    scopes: [company:basic:read]
    account: query.account_id
    query:
      account_id: { type: string }
    response: { list: { of: TestGadget, default_page_size: 10, max_page_size: 100 } }
    plain: { kind: list, find: { code: 'test_widgets/find-gadget#findGadget', does: 'by tgdt_ id or by its name' } }

events:
`), "plain: { kind: list, find:", 'plain.find', 'applies to a plain retrieve, delete, transition or action, not a list'],
];

for (const [name, text, line, ...words] of problemCases) {
  t(`problem: ${name}`, () => {
    problemAt(problemsWith(text), F, lineOf(text, line), ...words);
  });
}

t('the real spec\'s payment actions are declared plain actions', () => {
  const { spec } = loadSpec(projectRoot);
  const actions = spec.operations.filter((o) => o.plain?.kind === 'action').map((o) => o.id);
  for (const id of ['capturePayment', 'voidPayment', 'retryPayment', 'refundPayment']) assert.ok(actions.includes(id), `${id} is a plain action`);
});

t.run();
