// migrations/tables.json (what generated/rows.ts types rows from) is what the migrations make: a migration that
// changes a table without `npm run tables` writing the file again fails here. And the generator types a row as pg
// hands it over, narrowed where the spec's fields say more (enum values, an object's type).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createKnex } from '../../runtime/db.js';
import { dropDatabase, ensureDatabase } from '../../runtime/bootstrap.js';
import { randomToken } from '../../runtime/ids.js';
import { projectRoot } from '../../runtime/project-root.js';
import { migratedTables, tableColumns, tablesFile, tablesText } from '../../bin/table-columns.js';

const t = suite('generator: the tables rows are typed from');

t('migrations/tables.json is what the migrations make (`npm run tables` writes it)', async () => {
  const adminUrl = process.env.TEST_ADMIN_URL;
  const template = process.env.TEST_TEMPLATE;
  if (!adminUrl || !template) throw new Error('Run tests with `npm test`: it prepares the database');
  const name = `t_${randomToken(10).toLowerCase()}`;
  const db = createKnex(await ensureDatabase(adminUrl, name, template), 1);
  try {
    const written = readFileSync(tablesFile(projectRoot), 'utf8');
    assert.ok(written === tablesText(await tableColumns(db)), 'migrations/tables.json is stale: run `npm run tables`');
  } finally {
    await db.destroy();
    await dropDatabase(adminUrl, name);
  }
});

t('examples/library/migrations/tables.json is what its migrations make', async () => {
  const root = join(projectRoot, 'examples', 'library');
  const written = readFileSync(tablesFile(root), 'utf8');
  assert.ok(written === tablesText(await migratedTables(root, process.env.TEST_ADMIN_URL)),
    'examples/library/migrations/tables.json is stale: run `npm run tables`');
});

t('a row is typed as pg hands it over, with the enum values and objects the spec gives its columns', () => {
  const rows = readFileSync(join(projectRoot, 'generated', 'rows.ts'), 'utf8');
  const promoCodes = /\n {2}promo_codes: \{\n([^}]*)\n {2}\};/.exec(rows)?.[1] ?? '';
  assert.match(promoCodes, 'status: "active" | "inactive" | "archived";');
  assert.match(promoCodes, 'amount_off: number | null;');
  assert.match(promoCodes, 'percent_off: string | null;');
  assert.match(promoCodes, 'expires_at: string | null;');
  assert.match(rows, 'export type PromoCodeRow = Tables[\'promo_codes\'];');
  assert.match(rows, /export type AccountRow = Tables\['accounts'\] & \{\n {2}'parent_account.id': string \| null;/);
});

t.run();
