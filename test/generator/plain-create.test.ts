// Plain creates (an operation's `plain: { kind: create }`): a POST to a collection the generator builds from its
// body and resource, and the problems it reports, each at its file:line:column.
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

const t = suite('generator: plain creates');
t.after(() => removeCopies());

/** A stored resource and two creates: one writing its body, one with a hook taking a list no column holds. */
const CREATES = `resources:
  TestGadget:
    prefix: tgdt_
    object: test_gadget
    table: { name: test_gadgets, columns: { label: title } }
    fields:
      id: { type: id, resource: TestGadget }
      account_id: { type: id, resource: Account }
      label: string
      colour: string?
      metadata: metadata
      created_at: timestamp

operations:
  createTestGadget:
    method: POST
    path: /test_gadgets
    summary: Create a test gadget
    account: body.account_id
    scopes: [company:update]
    body:
      account_id: { type: id, resource: Account, required: true }
      label: { type: string, max_length: 100, required: true }
      colour: { type: string, max_length: 20 }
      metadata: { type: metadata }
    response: { status: 201, type: TestGadget }
    plain: { kind: create, emits: test_gadget.created }

  createCheckedTestGadget:
    method: POST
    path: /checked_test_gadgets
    summary: Create a test gadget, checked
    account: body.account_id
    scopes: [company:update]
    body:
      account_id: { type: id, resource: Account, required: true }
      label: { type: string, max_length: 100, required: true }
      parts: { type: array, items: { type: string, max_length: 20 }, max_items: 5 }
    response: { status: 201, type: TestGadget }
    plain: { kind: create, hook: Upper-cases the label and keeps the parts as the colour. }

events:
  test_gadget.created: { schema: TestGadget, description: A test gadget was created. }
`;

t('a plain create gets a generated handler: the prefix, the account, each body field in its column, the event', () => {
  const ops = generate(projectCopy({ fixture: CREATES })).files['plain-operations.ts'];
  assert.match(ops, `export const createTestGadget = plainCreate<Operations['createTestGadget']>(resources.TestGadget, {
  prefix: 'tgdt_',
  table: 'test_gadgets',
  accountParam: 'account_id',
  fields: {
    label: { column: 'title', metadata: false },
    colour: { column: 'colour', metadata: false },
    metadata: { column: 'metadata', metadata: true },
  },
  emits: 'test_gadget.created',
});`);
  // the list no column takes as sent is the hook's to write
  assert.match(ops, "  fields: {\n    label: { column: 'title', metadata: false },\n  },\n  hook: createCheckedTestGadgetHook,");
  assert.match(ops, /import \{ plainCreate \} from '[^']*runtime\/plain\/create.js';/);
});

t('a plain create has no handler file; one with a hook gets the hook\'s scaffold', async () => {
  const root = projectCopy({ fixture: CREATES });
  const run = await runGenerator(root);
  assert.is(run.code, 0, run.stderr);
  assert.not.ok(existsSync(join(root, 'handlers/test_widgets/createTestGadget.ts')));
  const hook = readText(join(root, 'handlers/test_widgets/createCheckedTestGadget.ts'));
  assert.match(hook, "export const createCheckedTestGadget: CreateHook<'createCheckedTestGadget'> = async () => {");
  assert.match(readText(join(root, 'generated/plain-hooks.ts')), 'export type CreateHook<K extends keyof Operations> = Any.CreateHook<');
});

const problemCases: [string, string, string, ...string[]][] = [
  ['a body field no column takes, without a hook',
    replaceOnce(CREATES, ', hook: Upper-cases the label and keeps the parts as the colour. }', ' }'), '      parts: { type: array', 'body.parts', 'no column a plain create writes it to', 'hook'],
  ['a create of one object (an {id} path)',
    replaceOnce(CREATES, 'path: /test_gadgets\n', 'path: /test_gadgets/{id}\n'), 'path: /test_gadgets/{id}', 'path', 'must name a collection'],
  ['a create without the account it creates in',
    replaceOnce(CREATES, '    summary: Create a test gadget\n    account: body.account_id\n', '    summary: Create a test gadget\n'), 'plain: { kind: create, emits', 'plain', 'must name a required body field'],
  ['a method a create does not answer',
    replaceOnce(CREATES, '    method: POST\n    path: /test_gadgets\n', '    method: PUT\n    path: /test_gadgets\n'), 'plain: { kind: create, emits', 'plain.kind is create', 'not PUT'],
  ['an event of another resource',
    replaceOnce(CREATES, 'emits: test_gadget.created }', 'emits: test_gadget.made }'), 'emits: test_gadget.made', 'plain.emits', 'no area declares'],
];

for (const [name, text, line, ...words] of problemCases) {
  t(`problem: ${name}`, () => {
    problemAt(problemsWith(text), F, lineOf(text, line), ...words);
  });
}

/** The checked create declares the 409 of its table's unique (account, title): a duplicate the insert itself finds. */
const UNIQUE = replaceOnce(CREATES, '    plain: { kind: create, hook: Upper-cases the label and keeps the parts as the colour. }\n', `    errors: [400, 401, 403, 409]
    plain:
      kind: create
      hook: Upper-cases the label and keeps the parts as the colour.
      unique:
        test_gadgets_account_id_title_unique: { message: "A test gadget '{label}' already exists", param: label }
`);

t('a declared unique constraint goes to the create with its error: 409 conflict unless said otherwise', () => {
  const ops = generate(projectCopy({ fixture: UNIQUE })).files['plain-operations.ts'];
  assert.match(ops, `  unique: {
    test_gadgets_account_id_title_unique: { status: 409, type: 'conflict', message: 'A test gadget \\'{label}\\' already exists', param: 'label' },
  },
  hook: createCheckedTestGadgetHook,`);
});

const uniqueProblems: [string, string, string, ...string[]][] = [
  ['a param the body does not take',
    replaceOnce(UNIQUE, 'param: label }', 'param: title }'), 'test_gadgets_account_id_title_unique:', 'plain.unique.test_gadgets_account_id_title_unique.param', 'names title', 'not a body field'],
  ['a message naming a value the body does not take',
    replaceOnce(UNIQUE, "'{label}' already", "'{title}' already"), 'test_gadgets_account_id_title_unique:', 'plain.unique.test_gadgets_account_id_title_unique.message', 'names {title}'],
  ['a status the operation does not declare',
    replaceOnce(UNIQUE, 'errors: [400, 401, 403, 409]', 'errors: [400, 401, 403]'), 'test_gadgets_account_id_title_unique:', 'answers 409', 'errors do not list'],
  ['a unique on another kind',
    replaceOnce(CREATES, '    plain: { kind: create, emits: test_gadget.created }', '    plain: { kind: retrieve, unique: { test_gadgets_pkey: { message: A gadget twice, param: label } } }'),
    'kind: retrieve, unique', 'plain.unique', 'applies to a plain create'],
  ['a message without words',
    replaceOnce(UNIQUE, `message: "A test gadget '{label}' already exists"`, 'message: dup'), 'test_gadgets_account_id_title_unique:', 'message'],
];

for (const [name, text, line, ...words] of uniqueProblems) {
  t(`problem: ${name}`, () => {
    problemAt(problemsWith(text), F, lineOf(text, line), ...words);
  });
}

t('the real spec\'s simple creates are declared plain creates', () => {
  const { spec } = loadSpec(projectRoot);
  const creates = spec.operations.filter((o) => o.plain?.kind === 'create').map((o) => o.id);
  for (const id of ['createProduct', 'createExperiment', 'createPromoCode', 'createPaymentMethodDomain']) assert.ok(creates.includes(id), `${id} is a plain create`);
});

t.run();
