// A plain delete that removes its row (no soft_delete) must not be refused by the database: no table may refer to
// the deleted table by a foreign key that blocks the delete (no action or restrict), or the DELETE answers an error
// the first time the resource has children. A resource with children keeps them as history by a soft delete
// (`table.soft_delete` in the spec) or says what happens to them with the key (on delete cascade or set null).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { loadSpec } from '../../generator/load-spec.js';
import { projectRoot } from '../../runtime/project-root.js';

const t = suite('plain deletes and the foreign keys on their tables');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('every table a plain delete removes rows from has no foreign key referring to it that blocks the delete', async () => {
  const { spec } = loadSpec(projectRoot);
  const hard = new Map<string, string[]>();
  for (const op of spec.operations) {
    if (op.plain?.kind !== 'delete') continue;
    const resource = op.response.deleted ? spec.resources[op.response.deleted] : undefined;
    const table = resource?.table;
    assert.ok(table, `${op.id} names the table it deletes from`);
    if (!table.soft_delete) hard.set(table.name, [...(hard.get(table.name) ?? []), op.id]);
  }
  const { rows } = await app.db.raw(`select c.conrelid::regclass::text as child, c.confrelid::regclass::text as parent, c.conname
    from pg_constraint c where c.contype = 'f' and c.confdeltype in ('a', 'r') and c.confrelid::regclass::text = any(?)`, [[...hard.keys()]]);
  const blocking = rows.map((r: { child: string; parent: string; conname: string }) =>
    `${hard.get(r.parent)!.join(', ')} deletes from ${r.parent}, which ${r.child} refers to (${r.conname})`);
  assert.equal(blocking, []);
  assert.ok(hard.size > 0, 'some plain delete removes rows, so the check checks something');
});

t.run();
