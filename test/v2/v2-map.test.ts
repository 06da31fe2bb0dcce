// The generator checks the v2 route map: names of Current operations, path parameters, adapters, the format.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSpec } from '../../generator/load-spec.js';
import { loadV2Map } from '../../generator/load-v2-map.js';
import { SpecError } from '../../generator/spec-source.js';
import { projectRoot } from '../../runtime/project-root.js';

const { spec } = loadSpec(projectRoot);

function problemsOf(routes: string): string[] {
  const root = mkdtempSync(join(tmpdir(), 'v2map-'));
  try {
    mkdirSync(join(root, 'spec'));
    writeFileSync(join(root, 'spec', 'v2.yaml'), `base_path: /api/v2\ndeprecated_at: 2025-01-01\nrender_version: 2025-01-01\n`
      + `guide_path: /docs/v2-migration\nmax_listed_items: 100\nroutes:\n${routes}`);
    loadV2Map(root, spec);
    return [];
  } catch (e) {
    if (e instanceof SpecError) return e.problems;
    throw e;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('the real map loads and maps every route to an operation that exists', () => {
  const map = loadV2Map(projectRoot, spec);
  const ids = new Set(spec.operations.map((o) => o.id));
  assert.ok(map.routes.length >= 30);
  for (const r of map.routes) assert.ok(ids.has(r.current), r.current);
});

test('a route naming a Current operation that does not exist is refused with its line', () => {
  const problems = problemsOf('  - route: GET /company\n    current: retrieveCompanyOfOld\n');
  assert.is(problems.length, 1);
  assert.match(problems[0], /^spec\/v2\.yaml:\d+:\d+: GET \/company maps to the Current operation retrieveCompanyOfOld, which does not exist/);
});

test('a Current path parameter without a v2 source, a source the path lacks and a bad route are refused', () => {
  assert.match(problemsOf('  - route: GET /payment_fees\n    current: listPaymentFees\n').join('\n'), 'needs the path parameter id');
  assert.match(problemsOf('  - route: GET /fees\n    current: listPaymentFees\n    path: { id: path.payment }\n').join('\n'), 'its path has no {payment}');
  assert.ok(problemsOf('  - route: FETCH /company\n    current: retrieveCurrentAccount\n').length > 0);
  assert.match(problemsOf('  - route: GET /a\n    current: retrieveCurrentAccount\n  - route: GET /a\n    current: retrieveCurrentAccount\n').join('\n'), 'mapped twice');
});

test.run();
