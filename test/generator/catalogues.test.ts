// State machines and the event catalogue: references are checked, and the runtime data is emitted from them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FIXTURE, problemsWith, removeCopies, projectCopy } from './spec-fixture.js';
import { generate } from '../../generator/generate.js';

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

t.run();
