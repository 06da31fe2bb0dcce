// Retired operations (generator/gone.ts): declared gone with their shape they are served in it at the versions before
// their `since` and answer 410 from it on; declared gone without one they are only a 410, as before.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FIXTURE, FIXTURE_FILE, problemsWith, projectCopy, removeCopies } from './spec-fixture.js';
import { addVersion } from './version-fixture.js';
import { breakingChanges } from '../../generator/released.js';
import { loadSpec } from '../../generator/load-spec.js';
import { deriveVersions } from '../../generator/versions.js';
import { diffVersions } from '../../generator/diff.js';
import { generate } from '../../generator/generate.js';

const t = suite('generator: retired operations');
t.after(removeCopies);

const SHAPE = `    scopes: [company:update]
    body:
      reason: { type: enum, values: [worn, lost], required: true }
    response: { type: TestWidget }
    errors: [400, 401, 404]
`;
const archive = (shape: string) => `${FIXTURE}
  archiveTestWidget:
    method: POST
    path: /test_widgets/{id}/archive
    summary: Archive a test widget (retired)
    gone: { since: 2026-10-01, successor: '/test_widgets/{id}' }
${shape}`;

/** A copy whose newest version, 2026-10-01, retires archiveTestWidget. */
function retiring(shape: string): string {
  const root = projectCopy({ fixture: archive(shape) });
  addVersion(root, '2026-10-01', {
    'archiving-retired': 'description: Archiving is retired.\ninstructions:\n  - endpoint_gone: { operation: archiveTestWidget }\n',
  });
  return root;
}

/** Each copy generated once, for the tests that read it. */
let shapedOut: ReturnType<typeof generate> | undefined;
let retiredOut: ReturnType<typeof generate> | undefined;
const shapedOnce = (root = retiring(SHAPE)) => (shapedOut ??= generate(root));
const retiredOnce = () => (retiredOut ??= generate(retiring('    errors: [401]\n')));

const routeOf = (routes: string, id: string) => {
  const at = routes.indexOf(`id: "${id}"`);
  return routes.slice(at, routes.indexOf('\n  }', at));
};

t('with its shape: served as declared before since, a 410 from since on, in every emitted file', () => {
  const root = retiring(SHAPE);
  const views = deriveVersions(loadSpec(root).spec);
  const at = (date: string) => views.find((v) => v.date === date)!.operations.find((o) => o.id === 'archiveTestWidget')!;
  assert.equal([at('2026-10-01').response.status, at('2026-10-01').body, !!at('2026-10-01').gone], [410, undefined, true]);
  assert.equal([at('2026-09-06').response.type, Object.keys(at('2026-09-06').body!), at('2026-09-06').gone], ['TestWidget', ['reason'], undefined]);
  assert.is(at('2025-01-01').response.type, 'TestWidget');

  const out = shapedOnce(root);
  const route = routeOf(out.files['routes.ts'], 'archiveTestWidget');
  assert.match(route, /handler: archiveTestWidget,/);
  assert.match(route, /gone: \{ "since": "2026-10-01", "successor": "\/test_widgets\/\{id\}" \}/);
  assert.match(route, /"2026-09-06": \{ path/);
  assert.match(route, /"2025-01-01": \{ path/);
  assert.not.match(route, /"2026-10-01": \{ path/);
  assert.match(out.files['routes.ts'], /import \{ archiveTestWidget \} from "\.\.\/handlers\/test_widgets\/archiveTestWidget\.js"/);
  assert.match(out.files['types.ts'], /archiveTestWidget: \{ input: ArchiveTestWidgetInput; output: ArchiveTestWidgetOutput \}/);
  assert.ok('test_widgets/archiveTestWidget.ts' in out.scaffolds);
  const doc = (date: string) => JSON.parse(out.documents[date]).paths['/test_widgets/{id}/archive'].post;
  // Still authenticated before its 410 (the caller's pin decides the version), and still at its path: it keeps its
  // path parameter and its security (a document without them is invalid OpenAPI).
  assert.equal(Object.keys(doc('2026-10-01').responses), ['400', '401', '410', '429']);
  assert.equal(doc('2026-10-01').parameters.filter((p: { in: string }) => p.in === 'path').map((p: { name: string }) => p.name), ['id']);
  assert.equal(doc('2026-10-01').security, [{ api_key: [] }, { user_token: [] }]);
  assert.ok(doc('2026-09-06').responses['200'].content, 'documented with its shape before since');
  assert.is(doc('2026-09-06').requestBody.content['application/json'].schema.properties.reason.enum.join(), 'worn,lost');
  assert.equal(doc('2026-09-06').deprecated, undefined);

  // the diff still shows the retirement
  const d = diffVersions(loadSpec(root).spec, '2026-09-06', '2026-10-01');
  assert.equal(d.operations.archiveTestWidget.changes.map((c) => [c.to, c.breaking]), [['410 gone', true]]);
});

t('without its shape: only a 410, with no handler, no versions and no scaffold (as before)', () => {
  const out = retiredOnce();
  const route = routeOf(out.files['routes.ts'], 'archiveTestWidget');
  assert.match(route, /handler: null,/);
  assert.match(route, /versions: \{ {2}\}|versions: \{\}/);
  assert.not.ok('test_widgets/archiveTestWidget.ts' in out.scaffolds);
  assert.not.match(out.files['types.ts'], /ArchiveTestWidgetInput/);
  assert.equal(Object.keys(JSON.parse(out.documents['2026-09-06']).paths['/test_widgets/{id}/archive'].post.responses), ['400', '401', '410', '429']);
});

t('a plain kind needs the shape: a retired operation declared plain without a response is refused', () => {
  const problems = problemsWith(archive('    scopes: [company:update]\n    plain: { kind: delete }\n'));
  assert.ok(problems.some((p) => p.startsWith(FIXTURE_FILE) && p.includes('archiveTestWidget is gone without its shape')), problems.join('\n'));
});

t('released versions: a released 410 gaining its shape at older versions is an addition; losing it again breaks them', () => {
  const retiredOnly = retiredOnce().documents['2026-09-06'];
  const shaped = shapedOnce().documents['2026-09-06'];
  assert.equal(breakingChanges(JSON.parse(retiredOnly), JSON.parse(shaped)), []);
  const lost = breakingChanges(JSON.parse(shaped), JSON.parse(retiredOnly));
  assert.ok(lost.includes('operation archiveTestWidget (POST /test_widgets/{id}/archive): now gone (410)'), lost.join('\n'));
});

t.run();
