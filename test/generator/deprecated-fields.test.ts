// Deprecated fields (generator/deprecated-fields.ts): a resource's field or an operation's body or query field marked
// `deprecated: { since, successor, sunset?, note? }` is mapped to the operations and events carrying it at each
// version (absent where an older version has no such field), is checked (since a version, successor a sibling, the
// mark only where it can be), and its sunset is accepted only on evidence (generator/sunset-evidence.ts), as an
// operation's is.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FIXTURE, FIXTURE_FILE, lineOf, problemsWith, projectCopy, removeCopies, replaceOnce, specProblems, writeIn } from './spec-fixture.js';
import { loadSpec } from '../../generator/load-spec.js';
import { deriveVersions } from '../../generator/versions.js';
import { deprecatedFieldCarriers } from '../../generator/deprecated-fields.js';
import { EVIDENCE_FILE } from '../../generator/sunset-evidence.js';

const t = suite('generator: deprecated fields');
t.after(removeCopies);

const COLOUR = '      colour: { type: enum, values: [red, green] }\n      size: integer?';
const withDeprecation = (deprecation: string) => `${replaceOnce(FIXTURE, COLOUR,
  `      colour: { type: enum, values: [red, green], deprecated: ${deprecation} }\n      size: integer?`)}
  filterTestWidgets:
    method: GET
    path: /filtered_test_widgets
    summary: Filter test widgets
    scopes: [company:basic:read]
    query:
      tint: { type: string, deprecated: { since: 2025-01-01, successor: colour } }
      colour: { type: enum, values: [red, green] }
    response: { list: { of: TestWidget, default_page_size: 10, max_page_size: 50 } }

events:
  test_widget.painted: { schema: TestWidget, description: A test widget changed colour. }
  test_gadget.built: { schema: TestGadget, description: A test gadget was built. }
`;

/** A copy where colour was added in 2026-09-06: the first version has no such field. */
function copyWith(deprecation: string): string {
  const root = projectCopy({ fixture: withDeprecation(deprecation) });
  writeIn(root, 'spec/versions/2026-09-06/version.yaml', 'description: The latest version of the fixture API.\nchanges: [widget-colour]\n');
  writeIn(root, 'spec/versions/2026-09-06/widget-colour.yaml',
    'description: Test widgets have a colour.\ninstructions:\n  - field_added: { schema: TestWidget, field: colour }\n');
  return root;
}

t('the map: operations and events carrying the field, at the versions that have it; a request field at its operation', () => {
  const { spec } = loadSpec(copyWith('{ since: 2026-09-06, successor: name, note: "Named, not picked." }'));
  const carriers = deprecatedFieldCarriers(spec, deriveVersions(spec));
  assert.equal(carriers.map((c) => c.id), ['filterTestWidgets.query.tint', 'TestWidget.colour']);
  const [tint, colour] = carriers;
  assert.equal(colour.operations, {
    filterTestWidgets: ['2026-09-06'], listTestWidgets: ['2026-09-06'], retrieveTestWidget: ['2026-09-06'], updateTestWidget: ['2026-09-06'],
  });
  // The gadget carries its widget, so the gadget's event carries the colour too.
  assert.equal(colour.events, { 'test_gadget.built': ['2026-09-06'], 'test_widget.painted': ['2026-09-06'] });
  assert.equal([colour.since, colour.successor, colour.sunset, colour.note], ['2026-09-06', 'name', null, 'Named, not picked.']);
  assert.equal(tint.operations, { filterTestWidgets: ['2026-09-06', '2025-01-01'] });
  assert.equal(tint.events, {});
});

t('since must be a version, the successor a field beside it, and the mark is for a resource\'s or request\'s own fields', () => {
  const found = problemsWith(replaceOnce(withDeprecation('{ since: 2026-01-01, successor: hue }'), 'widget: { type: ref, ref: TestWidget }',
    'widget: { type: ref, ref: TestWidget }\n      parts: { type: object, fields: { bolt: { type: string, deprecated: { since: 2025-01-01, successor: null } } } }'));
  const text = withDeprecation('{ since: 2026-01-01, successor: hue }');
  assert.is(found.length, 3, found.join('\n'));
  assert.ok(found.some((p) => p.startsWith(`${FIXTURE_FILE}:${lineOf(text, 'colour: { type: enum, values: [red, green], deprecated')}:`)
    && p.includes('TestWidget.colour is deprecated since 2026-01-01, which is not a version of the spec (2026-09-06, 2025-01-01)')), found.join('\n'));
  assert.ok(found.some((p) => p.includes('the successor of TestWidget.colour must be another field beside it, and hue is not one')), found.join('\n'));
  assert.ok(found.some((p) => p.includes('deprecated marks a resource\'s own fields and an operation\'s query and body fields only')), found.join('\n'));
});

function sunsetProblems(sunset: string, evidence?: { users: number; noticed_at: string | null }): string[] {
  const root = copyWith(`{ since: 2026-09-06, successor: name, sunset: ${sunset} }`);
  if (evidence) {
    writeIn(root, EVIDENCE_FILE, JSON.stringify({ window_days: 7, recorded_at: '2026-11-29T12:00:00.000Z', operations: {}, fields: { 'TestWidget.colour': evidence } }));
  }
  return specProblems(root);
}

const at = (sunset: string) => `${FIXTURE_FILE}:${lineOf(withDeprecation(`{ since: 2026-09-06, successor: name, sunset: ${sunset} }`), `sunset: ${sunset}`)}:`;

t('a field\'s sunset without evidence is refused, at its position', () => {
  const found = sunsetProblems('2027-01-01');
  assert.is(found.length, 1, found.join('\n'));
  assert.ok(found[0].startsWith(at('2027-01-01')), found[0]);
  assert.match(found[0], `a sunset for TestWidget.colour needs evidence that nobody still uses it, and ${EVIDENCE_FILE} records none for it`);
});

t('a field used in the window by accounts not notified: refused, naming their count; unused or noticed before: accepted', () => {
  const found = sunsetProblems('2027-01-01', { users: 2, noticed_at: null });
  assert.is(found.length, 1, found.join('\n'));
  assert.ok(found[0].startsWith(at('2027-01-01')), found[0]);
  assert.match(found[0], 'TestWidget.colour cannot be given a sunset: 2 accounts used it in the 7 days before 2026-11-29T12:00:00.000Z and were not notified');
  assert.equal(sunsetProblems('2027-01-01', { users: 0, noticed_at: null }), []);
  assert.equal(sunsetProblems('2027-01-01', { users: 1, noticed_at: '2026-11-29T10:00:00.000Z' }), []);
  const early = sunsetProblems('2026-11-29', { users: 1, noticed_at: '2026-11-29T10:00:00.000Z' });
  assert.is(early.length, 1, early.join('\n'));
  assert.match(early[0], 'the sunset of TestWidget.colour (2026-11-29) must come after the notice its 1 user was sent on 2026-11-29');
});

t.run();
