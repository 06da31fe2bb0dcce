// The changelog as instructions: the generator refuses changes it cannot honour, and derives older versions.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { FIXTURE, projectCopy, readText, removeCopies, runGenerator, replaceOnce } from './spec-fixture.js';
import { addVersion, unitsFromListItems } from './version-fixture.js';
import { loadSpec } from '../../generator/load-spec.js';
import type { ApiSpec } from '../../generator/spec-types.js';
import { SpecError } from '../../generator/spec-source.js';
import { deriveVersions, VersionProblems } from '../../generator/versions.js';
import { diffVersions, formatDiff } from '../../generator/diff.js';
import { generate } from '../../generator/generate.js';
import { projectRoot } from '../../runtime/project-root.js';

const t = suite('generator: versions');
t.after(removeCopies);

let real: ApiSpec | undefined;
/** This API's spec, loaded once (seconds) for the tests about its own versions. */
const realSpec = () => (real ??= loadSpec(projectRoot).spec);

/** A copy that gains a newest version 2026-10-01 with the given changes (YAML list items), named change-1, ... */
function withChanges(changes: string, fixture = FIXTURE): string {
  const root = projectCopy({ fixture });
  addVersion(root, '2026-10-01', unitsFromListItems(changes));
  return root;
}

function problems(root: string): string[] {
  try {
    deriveVersions(loadSpec(root).spec);
  } catch (e) {
    if (e instanceof VersionProblems) return e.problems;
    throw e;
  }
  return [];
}

t('a change that targets nothing is refused, naming the version and the missing target', () => {
  const found = problems(withChanges(`      - description: Widgets gained a weight.
        instructions:
          - field_added: { schema: TestWidget, field: weight }
      - description: An operation that is not there.
        instructions:
          - endpoint_added: { operation: listGizmos }`));
  assert.is(found.length, 2);
  assert.match(found[0], /^spec\/versions\/2026-10-01\/change-1\.yaml:3:5: 2026-10-01 change change-1 .*TestWidget\.weight, which does not exist/);
  assert.match(found[1], /listGizmos, which does not exist/);
});

t('a change without a description is refused by the meta-schema with a position', async () => {
  const root = withChanges(`      - instructions:
          - field_added: { schema: TestWidget, field: size }`);
  const res = await runGenerator(root, '--check');
  assert.is(res.code, 1);
  assert.match(res.stderr, /spec\/versions\/2026-10-01\/change-1\.yaml:\d+:\d+: .*needs "description"/);
});

t('a move that changes path parameters without saying so is refused; saying so is accepted', () => {
  const silent = problems(withChanges(`      - description: Widgets moved.
        instructions:
          - endpoint_moved: { operation: retrieveTestWidget, from: '/widgets/{widget_id}' }`));
  assert.is(silent.length, 1);
  assert.match(silent[0], /changes path parameters without saying so/);
  assert.match(silent[0], /\{widget_id\}/);
  const said = problems(withChanges(`      - description: Widgets moved.
        instructions:
          - endpoint_moved: { operation: retrieveTestWidget, from: '/widgets/{widget_id}', params: { widget_id: id } }`));
  assert.equal(said, []);
});

t('older versions are derived: fields, enum values and endpoints as they were', () => {
  const root = withChanges(`      - description: Widgets gained a size, a blue colour and a list endpoint.
        instructions:
          - field_added: { schema: TestWidget, field: size }
          - enum_value_added: { schema: TestWidget, field: colour, value: green, fallback: null }
          - endpoint_added: { operation: listTestWidgets }
          - request_field_rejected: { operation: updateTestWidget, field: name }`);
  const views = deriveVersions(loadSpec(root).spec);
  const [head, before] = views;
  assert.is(head.date, '2026-10-01');
  assert.ok('size' in head.resources.TestWidget.fields);
  assert.not.ok('size' in before.resources.TestWidget.fields);
  assert.equal(before.resources.TestWidget.fields.colour.values, ['red']);
  assert.ok(before.resources.TestWidget.fields.colour.nullable);
  assert.ok(head.operations.some((o) => o.id === 'listTestWidgets'));
  assert.not.ok(before.operations.some((o) => o.id === 'listTestWidgets'));
  // Rejected from the new version on: the head validator refuses it, the older version still takes it.
  assert.not.ok('name' in head.operations.find((o) => o.id === 'updateTestWidget')!.body!);
  assert.ok('name' in before.operations.find((o) => o.id === 'updateTestWidget')!.body!);
});

/** The fixture with TestWidget stored in a table, whose `label` is read by SQL. */
const STORED_WIDGET = replaceOnce(replaceOnce(FIXTURE, `    object: test_widget
    fields:`, `    object: test_widget
    table:
      name: test_widgets
      columns:
        label: { sql: "select upper(test_widgets.name)" }
    fields:`), `      size: integer?
`, `      size: integer?
      label: string
`);

t('field_hidden: the head declares a field it hides; older versions show it, filled apart, never read at the head', () => {
  const root = withChanges(`      - description: Widgets no longer show their label.
        instructions:
          - field_hidden: { schema: TestWidget, field: label }`, STORED_WIDGET);
  const views = deriveVersions(loadSpec(root).spec);
  const [head, before] = views;
  assert.not.ok('label' in head.resources.TestWidget.fields);
  assert.equal(before.resources.TestWidget.fields.label.type, 'string');
  const { files, documents } = generate(root);
  // The head's document has no label; the older one does.
  const doc = (date: string) => JSON.parse(documents[date]).components.schemas.TestWidget.properties;
  assert.not.ok('label' in doc('2026-10-01'));
  assert.ok('label' in doc(before.date));
  // Handlers may leave it out: optional in the head's type.
  assert.match(files['types.ts'], /label\?: string;/);
  // The resource's statement does not select it; its own select list and reader do, for the versions that show it.
  const resources = files['resources.ts'];
  const widget = resources.slice(resources.indexOf('  TestWidget: {'), resources.indexOf('satisfies StoredResource<T.TestWidget>'));
  assert.not.match(widget.slice(0, widget.indexOf('hidden:')), /upper\(test_widgets\.name\)/);
  assert.match(widget, /hidden: \{\n\s+label: \{ select: '\(select upper\(test_widgets\.name\)\) as "\$label"', columns: \['\$label'\], read: \(row: Row\) => row\['\$label'\] \}/);
  assert.match(resources, new RegExp(`"TestWidget": \\{\\n\\s+"${before.date}": \\[\\n\\s+"label"`));
  assert.not.match(resources, /"2026-10-01": \[\n\s+"label"/);
  // The routes fill it (as an object, or a page's items) only at the versions that show it.
  const at = (op: string, date: string) => {
    const entry = files['routes.ts'].slice(files['routes.ts'].indexOf(`id: "${op}"`));
    const versions = entry.split('\n').find((l) => l.trim().startsWith('versions:'))!;
    return versions.split(/(?="\d{4}-\d{2}-\d{2}": \{ path)/).find((p) => p.startsWith(`"${date}"`))!;
  };
  assert.match(at('retrieveTestWidget', before.date), /fill: \{ schema: "TestWidget", list: false \}/);
  assert.match(at('listTestWidgets', before.date), /fill: \{ schema: "TestWidget", list: true \}/);
  assert.not.match(at('retrieveTestWidget', '2026-10-01'), /fill:/);
});

t('field_hidden is refused for a field the head does not declare, and for a field read without SQL', () => {
  const undeclared = problems(withChanges(`      - description: Hides what is not there.
        instructions:
          - field_hidden: { schema: TestWidget, field: weight }`, STORED_WIDGET));
  assert.equal(undeclared.length, 1);
  assert.match(undeclared[0], /field_hidden names TestWidget\.weight, which the head does not declare/);
  const root = withChanges(`      - description: Hides a column.
        instructions:
          - field_hidden: { schema: TestWidget, field: size }`, STORED_WIDGET);
  try {
    loadSpec(root);
    assert.unreachable('a hidden column field was accepted');
  } catch (e) {
    assert.ok(e instanceof SpecError, String(e));
    assert.ok((e as SpecError).problems.some((p) => /columns\.size is hidden at the head \(field_hidden\); read it by sql/.test(p)), (e as SpecError).problems.join('\n'));
  }
});

t('a moved endpoint is mounted at both paths, each for its own versions', () => {
  const root = withChanges(`      - description: Widgets moved.
        instructions:
          - endpoint_moved: { operation: retrieveTestWidget, from: '/widgets/{widget_id}', params: { widget_id: id } }`);
  const files = generate(root).files;
  const routes = files['routes.ts'];
  const entries = routes.split('id: "retrieveTestWidget"').slice(1).map((e) => e.slice(0, e.indexOf('handler:')));
  assert.is(entries.length, 2);
  const paths = entries.map((e) => /path: "([^"]+)"/.exec(e)![1]).sort();
  assert.equal(paths, ['/test_widgets/:id', '/widgets/:widget_id']);
  const old = entries.find((e) => e.includes('/widgets/:widget_id'))!;
  assert.match(old, /"2025-01-01"/);
  assert.not.match(old, /"2026-10-01"/);
  assert.match(files['transformers.ts'], /input\.path\["id"\] = input\.path\["widget_id"\]/);
});

t('the diff tool lists crossed changes per resource and operation, with breaking marks and pending counts', () => {
  const root = withChanges(`      - description: Widgets gained a size.
        instructions:
          - field_added: { schema: TestWidget, field: size }
      - description: Not built yet.
        pending: true`);
  const { spec } = loadSpec(root);
  const d = diffVersions(spec, '2026-09-06', '2026-10-01');
  assert.equal(d.versionsCrossed, ['2026-10-01']);
  assert.is(d.resources.TestWidget.changes[0].breaking, false);
  assert.equal(d.resources.TestWidget.usedBy.sort(), ['listTestWidgets', 'retrieveTestWidget', 'updateTestWidget']);
  assert.is(d.summary.pendingInRange, 1);
  assert.is(d.pending.length, 1);
  // Migrations to move together: the real spec's (the fixture spec has none).
  const migration = diffVersions(realSpec(), '2026-07-20', '2026-09-06');
  assert.ok(migration.migrations.some((m) => m.name === 'members_and_memberships' && m.version === '2026-07-23'));
  const none = diffVersions(realSpec(), '2026-07-23', '2026-09-06');
  assert.not.ok(none.migrations.some((m) => m.name === 'members_and_memberships'));
});

t('the diff from the official client\'s pin to the latest lists every older shape it crosses', () => {
  const spec = realSpec();
  const d = diffVersions(spec, '2026-07-20', '2026-09-06');
  const changes = (name: string) => (d.operations[name] ?? d.resources[name]).changes.map((c) => c.description);
  assert.ok(changes('listPayments').includes('query statuses: no longer accepted'));
  assert.ok(changes('listPayments').some((c) => c.startsWith('query statuses: values renamed') && c.includes('paid -> succeeded|refunded|partially_refunded')));
  assert.ok(changes('createPayment').includes('success status 200 -> 201'));
  assert.ok(changes('refundPayment').some((c) => c.includes('decimal in the payment currency') && c.includes('body partial_amount')));
  assert.ok(changes('Payment').some((c) => c.startsWith('total: a money object') && c.includes('decimal number')));
  assert.ok(changes('Payment').includes('company_id: renamed to account_id'));
  assert.ok(changes('extendMembership').includes('moved from /memberships/{id}/add_free_days to /memberships/{id}/extend'));
  assert.ok(changes('cancelMembership').some((c) => c.includes('body cancellation_mode')));
  assert.ok(changes('createSetupIntent').includes('success status 200 -> 201'));
  assert.ok(changes('PromoCode').some((c) => c.includes('one amount_off told apart by promo_type')));
  for (const c of Object.values(d.operations).concat(Object.values(d.resources) as never[]).flatMap((g) => g.changes)) {
    assert.not.match(c.description, /promoCodeLegacy|DecimalAmount|Timestamps\b/, 'transformers are described in words, not by internal name');
  }
  assert.ok(d.versionsCrossed.includes('2026-07-22'));
  // Endpoints that truly did not exist are the only ones added.
  const added = Object.entries(d.operations).filter(([, o]) => o.changes.some((c) => c.kind === 'endpoint_added')).map(([name]) => name).sort();
  for (const existed of ['listPayments', 'retrievePayment', 'createPayment', 'listMemberships', 'listMembers', 'createSetupIntent', 'createPromoCode']) {
    assert.not.ok(added.includes(existed), existed);
  }
});

t('the diff reads like a review: summary first, breaking first, each changelog text once, --breaking and --json', () => {
  const spec = realSpec();
  const d = diffVersions(spec, '2026-09-06', '2026-07-20');
  assert.ok(d.swapped);
  assert.is(d.from, '2026-07-20');
  const text = formatDiff(d);
  const lines = text.split('\n');
  assert.match(lines[1], /dates were swapped/);
  assert.match(lines[3], new RegExp(`^Summary: ${d.summary.breaking} breaking changes and ${d.summary.additive} additions in ${d.summary.operations} operations`));
  // Each changelog text appears once, however many changes it made.
  const entry33 = d.changelog['2026-08-21#33'].text;
  assert.is(text.split(entry33).length - 1, 1);
  // Operations with breaking changes come before additive-only ones; within one, breaking lines come first.
  const headers = lines.filter((l) => l.startsWith('Operation '));
  const firstAdditiveOnly = headers.findIndex((h) => !d.operations[h.split(' ')[1]].changes.some((c) => c.breaking));
  assert.ok(firstAdditiveOnly > 0);
  for (const h of headers.slice(firstAdditiveOnly)) assert.not.ok(d.operations[h.split(' ')[1]].changes.some((c) => c.breaking), h);
  for (const g of Object.values(d.operations)) {
    const marks = g.changes.map((c) => c.breaking);
    assert.equal(marks, [...marks].sort((a, b) => Number(b) - Number(a)));
  }
  // Structured changes: kind, field, from, to.
  const renamed = d.operations.createProduct.changes.find((c) => c.kind === 'request_field_renamed')!;
  assert.equal({ field: renamed.field, in: renamed.in, from: renamed.from, to: renamed.to }, { field: 'account_id', in: 'body', from: 'company_id', to: 'account_id' });
  const status = d.operations.createPayment.changes.find((c) => c.kind === 'status_changed')!;
  assert.equal([status.from, status.to], [200, 201]);
  // --breaking keeps only breaking changes; the summary still counts everything.
  const breaking = diffVersions(spec, '2026-07-20', '2026-09-06', { breakingOnly: true });
  const kept = [...Object.values(breaking.operations), ...Object.values(breaking.resources)].flatMap((g) => g.changes);
  assert.ok(kept.length > 0 && kept.every((c) => c.breaking));
  assert.is(kept.length + breaking.behaviour.length, d.summary.breaking);
  assert.equal(breaking.summary, d.summary);
  assert.not.ok('activatePromoCode' in breaking.operations, 'an operation with only additions is left out');
});

t('released versions are frozen: a breaking edit fails naming the operation and field; an addition passes', async () => {
  const root = projectCopy();
  const frozen = await runGenerator(root, '--release', 'all');
  assert.is(frozen.code, 0, frozen.stderr);
  const fixture = join(root, 'spec/areas/test_widgets.yaml');
  const original = readText(fixture);
  writeFileSync(fixture, replaceOnce(original, '      name: { type: string, max_length: 50 }\n', ''));
  const broken = await runGenerator(root, '--check');
  assert.is(broken.code, 1);
  assert.match(broken.stderr, /released version 2026-09-06: operation updateTestWidget \(PATCH \/test_widgets\/\{id\}\): body\.name: no longer accepted/);
  writeFileSync(fixture, replaceOnce(original, '      size: integer?\n', '      size: integer?\n      weight: integer?\n'));
  const added = await runGenerator(root);
  assert.is(added.code, 0, added.stderr);
});

t.run();
