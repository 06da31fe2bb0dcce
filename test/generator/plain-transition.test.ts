// Plain transitions (an operation's `plain: { kind: transition }`): a state move the generator builds from the
// state machine it names, and the problems it reports, each at its file:line:column.
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

const t = suite('generator: plain transitions');
t.after(() => removeCopies());

/** A stored resource with a lifecycle, and two moves: one stamping a timestamp, one with a hook. */
const MOVES = `state_machines:
  TestGadget:
    field: status
    transitions:
      archive: { from: [active, archived], to: archived }
      pause: { from: [active], to: paused }

resources:
  TestGadget:
    prefix: tgdt_
    object: test_gadget
    table: { name: test_gadgets }
    fields:
      id: { type: id, resource: TestGadget }
      status: { type: enum, values: [active, paused, archived] }
      archived_at: timestamp?
      created_at: timestamp

operations:
  archiveTestGadget:
    method: POST
    path: /test_gadgets/{id}/archive
    summary: Archive a test gadget
    scopes: [company:update]
    response: { type: TestGadget }
    plain: { kind: transition, machine: TestGadget, transition: archive, stamp: [archived_at], same_state: unchanged, emits: test_gadget.archived }

  pauseTestGadget:
    method: POST
    path: /test_gadgets/{id}/pause
    summary: Pause a test gadget
    scopes: [company:update]
    body:
      reason: { type: string, max_length: 100 }
    response: { type: TestGadget }
    plain: { kind: transition, machine: TestGadget, transition: pause, hook: Refuses a gadget still in use and keeps the reason. }

events:
  test_gadget.archived: { schema: TestGadget, description: A test gadget was archived. }
`;

t('a plain transition gets a generated handler: the machine, the move, the stamped columns and the event', () => {
  const ops = generate(projectCopy({ fixture: MOVES })).files['plain-operations.ts'];
  assert.match(ops, "export const archiveTestGadget = plainTransition<Operations['archiveTestGadget']>(resources.TestGadget, {");
  assert.match(ops, "  machine: 'TestGadget',\n  action: 'archive',\n  table: 'test_gadgets',\n  column: 'status',\n  stamps: ['archived_at'],\n  sameStateUnchanged: true,\n  emits: 'test_gadget.archived',");
  assert.match(ops, "import { pauseTestGadget as pauseTestGadgetHook } from '../handlers/test_widgets/pauseTestGadget.js';");
  assert.match(ops, /import \{ plainTransition \} from '[^']*runtime\/plain\/transition.js';/);
});

t('a plain transition has no handler file; one with a hook gets the hook\'s scaffold', async () => {
  const root = projectCopy({ fixture: MOVES });
  const run = await runGenerator(root);
  assert.is(run.code, 0, run.stderr);
  assert.not.ok(existsSync(join(root, 'handlers/test_widgets/archiveTestGadget.ts')));
  const hook = readText(join(root, 'handlers/test_widgets/pauseTestGadget.ts'));
  assert.match(hook, "export const pauseTestGadget: TransitionHook<'pauseTestGadget'> = async () => {");
  assert.match(hook, 'POST /test_gadgets/{id}/pause (plain transition): Refuses a gadget still in use and keeps the reason.');
});

/** A move and a delete of one's own gadget: its maker alone (by their user token) reaches it, without scopes. */
const OWN_MOVES = replaceOnce(MOVES, '\nevents:\n', `
  archiveOwnTestGadget:
    method: POST
    path: /own_test_gadgets/{id}/archive
    summary: Archive a test gadget of one's own
    auth: [user_token]
    response: { type: TestGadget }
    plain: { kind: transition, machine: TestGadget, transition: archive, own: { user: maker_id, only: true } }

  deleteOwnTestGadget:
    method: DELETE
    path: /own_test_gadgets/{id}
    summary: Delete a test gadget of one's own
    auth: [user_token]
    response: { deleted: TestGadget }
    plain: { kind: delete, own: { user: maker_id, only: true } }

events:
`);

t('a move and a delete name the row\'s user with own, as a retrieve does (runtime/plain/own-rows.ts)', () => {
  const ops = generate(projectCopy({ fixture: OWN_MOVES })).files['plain-operations.ts'];
  assert.match(ops, `export const archiveOwnTestGadget = plainTransition<Operations['archiveOwnTestGadget']>(resources.TestGadget, {
  scopes: [],`);
  assert.match(ops, "  sameStateUnchanged: false,\n  own: { user: 'maker_id', only: true },\n});");
  assert.match(ops, `export const deleteOwnTestGadget = plainDelete<Operations['deleteOwnTestGadget']>(resources.TestGadget, {
  scopes: [],
  statement: 'delete from "test_gadgets" where "id" = $1',
  own: { user: 'maker_id', only: true },
});`);
});

const problemCases: [string, string, string, ...string[]][] = [
  ['a machine no area declares',
    replaceOnce(MOVES, 'machine: TestGadget, transition: archive', 'machine: TestGizmo, transition: archive'), 'machine: TestGizmo', 'plain.machine', 'names TestGizmo, which no area declares under state_machines'],
  ['a transition the machine does not declare',
    replaceOnce(MOVES, 'transition: archive,', 'transition: retire,'), 'transition: retire', 'plain.transition', 'names retire, which TestGadget does not declare (archive, pause)'],
  ['a transition without its machine',
    replaceOnce(MOVES, 'machine: TestGadget, transition: archive, ', 'transition: archive, '), 'kind: transition, transition: archive', 'plain', 'needs machine'],
  ['a stamp that is not a timestamp',
    replaceOnce(MOVES, 'stamp: [archived_at]', 'stamp: [status]'), 'stamp: [status]', 'plain.stamp.0', 'names status, which is neither a timestamp column field'],
  ['a method a move does not answer',
    replaceOnce(MOVES, '    method: POST\n    path: /test_gadgets/{id}/archive', '    method: GET\n    path: /test_gadgets/{id}/archive'), 'kind: transition, machine: TestGadget, transition: archive', 'plain.kind is transition', 'not GET'],
  ['a body without a hook to take it',
    replaceOnce(MOVES, ', hook: Refuses a gadget still in use and keeps the reason. }', ' }'), '      reason: { type: string', 'body.reason', 'not taken by a plain transition without a hook'],
  ['machine and transition on another kind',
    replaceOnce(MOVES, 'plain: { kind: transition, machine: TestGadget, transition: pause,', 'plain: { kind: update, machine: TestGadget, transition: pause, fields: [reason],'), 'kind: update, machine', 'plain.machine', 'applies to a plain transition, not a update'],
  ['own.only on a move with scopes, which it never checks',
    replaceOnce(OWN_MOVES, "    auth: [user_token]\n    response: { type: TestGadget }", "    auth: [user_token]\n    scopes: [company:basic:read]\n    response: { type: TestGadget }"),
    'scopes: [company:basic:read]', 'scopes', 'never checked'],
];

for (const [name, text, line, ...words] of problemCases) {
  t(`problem: ${name}`, () => {
    problemAt(problemsWith(text), F, lineOf(text, line), ...words);
  });
}

t('the real spec\'s state moves are declared plain transitions', () => {
  const { spec } = loadSpec(projectRoot);
  const moves = spec.operations.filter((o) => o.plain?.kind === 'transition').map((o) => o.id);
  for (const id of ['activatePromoCode', 'archivePromoCode', 'pauseAdCampaign', 'unpauseAd']) assert.ok(moves.includes(id), `${id} is a plain transition`);
});

t.run();
