// A deprecated operation's sunset is accepted only on evidence (generator/sunset-evidence.ts): nobody called it in the
// recorded window, or every caller was notified before the sunset; otherwise a problem at the sunset's position.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FIXTURE, FIXTURE_FILE, lineOf, projectCopy, removeCopies, specProblems, writeIn } from './spec-fixture.js';
import { EVIDENCE_FILE } from '../../generator/sunset-evidence.js';

const t = suite('generator: sunsets need evidence');
t.after(removeCopies);

const withSunset = (sunset: string) => `${FIXTURE}
  listOldTestWidgets:
    method: GET
    path: /old_test_widgets
    summary: List test widgets (deprecated; use GET /test_widgets)
    deprecated: { successor: /test_widgets, sunset: ${sunset} }
    same_as: listTestWidgets
    scopes: [company:basic:read]
    response: { list: { of: TestWidget, default_page_size: 10, max_page_size: 50 } }
`;

function problems(sunset: string, evidence?: { users: number; noticed_at: string | null }): string[] {
  const root = projectCopy({ fixture: withSunset(sunset) });
  if (evidence) {
    writeIn(root, EVIDENCE_FILE, JSON.stringify({ window_days: 7, recorded_at: '2026-11-29T12:00:00.000Z', operations: { listOldTestWidgets: evidence } }));
  }
  return specProblems(root);
}

const at = (sunset: string) => `${FIXTURE_FILE}:${lineOf(withSunset(sunset), `sunset: ${sunset}`)}:`;

t('without evidence a sunset is refused, at its position', () => {
  const found = problems('2027-01-01');
  assert.is(found.length, 1, found.join('\n'));
  assert.ok(found[0].startsWith(at('2027-01-01')), found[0]);
  assert.match(found[0], `${EVIDENCE_FILE} records none for it (run npm run cli -- deprecations --record)`);
});

t('callers in the window who were not notified: refused, naming their count', () => {
  const found = problems('2027-01-01', { users: 2, noticed_at: null });
  assert.is(found.length, 1, found.join('\n'));
  assert.ok(found[0].startsWith(at('2027-01-01')), found[0]);
  assert.match(found[0], 'listOldTestWidgets cannot be given a sunset: 2 accounts called it in the 7 days before 2026-11-29T12:00:00.000Z and were not notified');
});

t('nobody called it: accepted', () => {
  assert.equal(problems('2027-01-01', { users: 0, noticed_at: null }), []);
});

t('every caller notified: accepted after the notice, refused on or before it', () => {
  assert.equal(problems('2027-01-01', { users: 1, noticed_at: '2026-11-29T10:00:00.000Z' }), []);
  const early = problems('2026-11-29', { users: 1, noticed_at: '2026-11-29T10:00:00.000Z' });
  assert.is(early.length, 1, early.join('\n'));
  assert.match(early[0], 'the sunset of listOldTestWidgets (2026-11-29) must come after the notice its 1 caller was sent on 2026-11-29');
});

t.run();
