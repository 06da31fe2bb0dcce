// State machines and the event catalogue: references are checked, and the runtime data is emitted from them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FIXTURE, problemsWith, removeCopies, projectCopy } from './spec-fixture.js';
import { generate } from '../../generator/generate.js';
import { loadSpec } from '../../generator/load-spec.js';

const t = suite('generator: state machines and events');
t.after(removeCopies);

const MACHINE = `state_machines:
  TestWidget:
    field: colour
    transitions:
      ripen: { from: [green], to: red }
      bloom: { from: [green, purple], to: red }
  TestGizmo:
    field: colour
    transitions:
      spin: { from: [red], to: green }

`;

t("states outside the field's enum and machines without a resource are refused with sentences", () => {
  const problems = problemsWith(MACHINE + FIXTURE.replace(/^# .*\n/, ''));
  assert.ok(problems.some((p) => /state_machines\.TestWidget\.transitions\.bloom names the state purple, which TestWidget\.colour does not have/.test(p)), problems.join('\n'));
  assert.ok(problems.some((p) => /state_machines\.TestGizmo names no resource/.test(p)), problems.join('\n'));
  assert.not.ok(problems.some((p) => p.includes('ripen')));
});

t('a valid machine and the event catalogue reach the runtime data', () => {
  const root = projectCopy({ fixture: MACHINE.replace(/      bloom.*\n/, '').replace(/  TestGizmo:[\s\S]*$/, '\n') + FIXTURE.replace(/^# .*\n/, '') });
  const data = generate(root).files['spec-data.ts'];
  assert.match(data, /"TestWidget": \{\s*"field": "colour",\s*"transitions": \{\s*"ripen": \{\s*"from": \[\s*"green"\s*\],\s*"to": "red"/);
  assert.match(data, /"account\.created": "Account"/);
  assert.match(data, /export type EventType = keyof typeof specData\.events;/);
});

t('an enum with values_from: events takes every declared event name, sorted, and grows with the catalogue', () => {
  const root = projectCopy({ fixture: FIXTURE.replace(/^# .*\n/, '') + `
events:
  test_widget.zapped: { schema: TestWidget, description: A widget was zapped. }
` });
  const { spec } = loadSpec(root);
  const events = spec.operations.find((o) => o.id === 'updateWebhook')!.body!.events;
  const names = events.items!.values!;
  assert.equal(names, Object.keys(spec.events).sort());
  assert.ok(names.includes('test_widget.zapped'));
  assert.ok(names.includes('account.created'));
  assert.is(events.items!.values_from, undefined);
  const doc = JSON.parse(generate(root).documents['2026-09-06']);
  const items = doc.paths['/webhooks/{id}'].patch.requestBody.content['application/json'].schema.properties.events.items;
  assert.equal(items.enum, names);
});

t.run();
