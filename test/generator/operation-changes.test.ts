// Version changes are named units (spec/versions/<date>/<name>.yaml); an operation's changes are found by its name,
// response-side ones through the schemas its responses carry (generator/operation-changes.ts, `npm run diff -- <op>`).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadSpec } from '../../generator/load-spec.js';
import { changesByOperation, findOperation, operationChangeIndex } from '../../generator/operation-changes.js';
import { SpecError } from '../../generator/spec-source.js';
import { projectRoot } from '../../runtime/project-root.js';
import { projectCopy, removeCopies } from './spec-fixture.js';
import { addVersion } from './version-fixture.js';

const t = suite('generator: version changes by operation');
t.after(removeCopies);
const { spec } = loadSpec(projectRoot);

t('npm run diff -- <operation> names the change that reached its response through a schema', async () => {
  const { stdout } = await promisify(execFile)('npx', ['tsx', 'bin/diff.ts', 'retrievePayout'], { cwd: projectRoot });
  assert.match(stdout, /^Operation retrievePayout \(GET \/payouts\/\{id\}\)/);
  assert.match(stdout, /\n2026-08-21 {2}payouts-status-v2 {2}\(spec\/versions\/2026-08-21\/payouts-status-v2\.yaml\)\n/);
  assert.match(stdout, /breaking {2}response Payout: Older versions show money as numbers/);
  const json = await promisify(execFile)('npx', ['tsx', 'bin/diff.ts', 'GET /payouts/{id}', '--json'], { cwd: projectRoot });
  const { operation, changes } = JSON.parse(json.stdout);
  assert.is(operation, 'retrievePayout');
  assert.ok(changes.some((c: { change: string; side: string; schema: string }) =>
    c.change === 'payouts-status-v2' && c.side === 'response' && c.schema === 'Payout'));
});

t('one operation\'s changes, request and response side, newest first', () => {
  const mine = changesByOperation(spec).createPayout.filter((c) => c.change === 'payouts-status-v2');
  assert.equal(mine.map((c) => [c.side, c.kind, c.schema]), [
    ['request', 'request_field_rejected', null],
    ['request', 'request_transformer', null],
    ['response', 'transformer', 'Payout'],
  ]);
  const dates = changesByOperation(spec).retrievePayout.map((c) => c.version);
  assert.equal(dates, [...dates].sort().reverse());
});

t('generated/changes-by-operation.json is the index of the spec, by change name', () => {
  const stored = JSON.parse(readFileSync(join(projectRoot, 'generated/changes-by-operation.json'), 'utf8'));
  assert.equal(stored, operationChangeIndex(spec));
  assert.ok(stored.retrievePayout.some((r: { change: string; response?: string[] }) => r.change === 'payouts-status-v2' && r.response?.includes('Payout')));
});

t('an operation is named by its id, METHOD /path or summary; a misspelt one is answered with the nearest', () => {
  assert.is(findOperation(spec, 'retrievepayout').id, 'retrievePayout');
  assert.is(findOperation(spec, findOperation(spec, 'retrievePayout').summary!).id, 'retrievePayout');
  assert.throws(() => findOperation(spec, 'retrievePayot'), /no operation retrievePayot; did you mean retrievePayout\?/);
});

t('every change is a named file its version lists; a converter instruction needs its file beside it', () => {
  const root = projectCopy();
  addVersion(root, '2026-10-01', {
    'widgets-reshaped': 'description: Widgets are shown another way.\ninstructions:\n  - transformer: { schema: TestWidget, description: Older versions show it otherwise. }\n',
    'widgets-renamed': 'description: Widgets take another name.\ninstructions:\n  - request_transformer: { operation: updateTestWidget, converter: widgets-renamed.request, description: Older versions send it otherwise. }\n',
  });
  writeFileSync(join(root, 'spec/versions/2026-10-01/forgotten.yaml'), 'description: Not listed.\n');
  let problems: string[] = [];
  try {
    loadSpec(root);
  } catch (e) {
    if (!(e instanceof SpecError)) throw e;
    problems = e.problems;
  }
  const has = (re: RegExp) => assert.ok(problems.some((p) => re.test(p)), `${re} among:\n${problems.join('\n')}`);
  has(/^spec\/versions\/2026-10-01\/forgotten\.yaml: not listed under changes in spec\/versions\/2026-10-01\/version\.yaml/);
  has(/^spec\/versions\/2026-10-01\/widgets-reshaped\.yaml:3:\d+: transformer needs its converter spec\/versions\/2026-10-01\/widgets-reshaped\.ts/);
  has(/^spec\/versions\/2026-10-01\/widgets-renamed\.yaml:3:\d+: request_transformer needs its converter spec\/versions\/2026-10-01\/widgets-renamed\.request\.ts/);
  assert.is(problems.length, 3, problems.join('\n'));
});

t.run();
