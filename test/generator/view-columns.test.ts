// A read for a stored resource's view alone (StoredResource.viewById): the generator selects the table's columns
// the view reads (its fields' columns and what each code field says it `reads:`), and emits none when a code field
// does not say; `reads:` on a field without code is a problem at its line.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { projectRoot } from '../../runtime/project-root.js';
import { FIXTURE_FILE as F, lineOf, problemAt, problemsWith, projectCopy, readText, removeCopies, runGenerator, writeIn } from './spec-fixture.js';

const t = suite('generator: the view\'s own columns');
t.after(() => removeCopies());

const widget = (score: string) => `resources:
  TestWidget:
    prefix: twgt_
    object: test_widget
    table:
      name: test_widgets
      columns:
        score: ${score}
    fields:
      id: { type: id, resource: TestWidget }
      name: string
      score: integer
      created_at: timestamp
`;
// The fixture's other stored resources keep the project's own tables.
const project = JSON.parse(readFileSync(join(projectRoot, 'migrations/tables.json'), 'utf8')) as { tables: Record<string, unknown> };
const TABLES = JSON.stringify({ views: [], tables: { ...project.tables, test_widgets: {
  id: 'text', account_id: 'text', name: 'text', points: 'int4', bonus: 'int4', notes: 'text?', created_at: 'timestamptz',
} } });

/** TestWidget's entry in the generated resources. */
async function generatedResources(fixture: string): Promise<string> {
  const root = projectCopy({ fixture });
  writeIn(root, 'migrations/tables.json', TABLES);
  const run = await runGenerator(root);
  assert.is(run.code, 0, run.stderr);
  const all = readText(join(root, 'generated/resources.ts'));
  const start = all.indexOf('  TestWidget: {');
  assert.ok(start >= 0, all);
  return all.slice(start, all.indexOf('satisfies StoredResource', start));
}

t('a view whose code fields say what they read: viewById selects those, its fields\' columns and the account', async () => {
  const text = await generatedResources(widget('{ code: widgets/widget-fields#score, reads: [points, bonus] }'));
  const statement = /viewById: '([^']+)'/.exec(text)?.[1];
  assert.ok(statement, text);
  for (const column of ['id', 'name', 'points', 'bonus', 'created_at', 'account_id']) {
    assert.ok(statement!.includes(`"test_widgets"."${column}"`), `${column} in ${statement}`);
  }
  assert.not.ok(statement!.includes('notes'), `the view does not read notes: ${statement}`);
  assert.ok(statement!.endsWith('where "test_widgets"."id" = $1'), statement);
  assert.match(text, /viewColumns: \["id","name","created_at","points","bonus","account_id"\]/);
  const select = /viewSelect: '([^']+)'/.exec(text)?.[1];
  assert.ok(select && statement!.startsWith(`select ${select} from `), `lists select what viewById does: ${select}`);
});

t('a code field that does not say what it reads: no viewById, the view\'s reads take every column', async () => {
  const text = await generatedResources(widget('{ code: widgets/widget-fields#score }'));
  assert.not.match(text, /viewById/);
  assert.match(text, /byId: 'select "test_widgets"\.\* from/);
});

t('reads on a field with neither code nor caller is a problem at its line', () => {
  const text = widget('{ column: points, reads: [points] }');
  problemAt(problemsWith(text), F, lineOf(text, 'score: { column: points'), 'reads', 'neither');
});

t('a caller field that says what its handler reads counts too; one that does not leaves no viewById', async () => {
  const said = await generatedResources(widget('{ caller: true, reads: [bonus] }'));
  assert.match(said, /viewColumns: \["id","name","created_at","bonus","account_id"\]/);
  assert.not.match(await generatedResources(widget('{ caller: true }')), /viewById/);
});

t.run();
