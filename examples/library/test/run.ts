// `npm run test:examples`: the library API's tests. One fresh database for the run on DATABASE_URL's server (or an
// embedded PostgreSQL), migrated with the library's own migrations and cloned for each test file; each file runs in
// its own process; the run ends with the same "N passed, N failed, N skipped" line as `npm test`.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKnex, openServer, withDatabase } from '../../../runtime/db.js';
import { dropDatabase, ensureDatabase } from '../../../runtime/bootstrap.js';
import { migrate } from '../../../runtime/migrate.js';
import { randomToken } from '../../../runtime/ids.js';
import { projectRoot } from '../../../runtime/project-root.js';
import { fileCounts } from '../../../test/helpers/uvu-counts.js';
import { closingLine } from '../../../test/helpers/skip.js';
import { LIBRARY_MIGRATIONS } from '../compose.js';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here).filter((f) => f.endsWith('.test.ts')).sort().map((f) => join(here, f))
  .filter((f) => filters.length === 0 || filters.some((text) => f.includes(text)));

const started = performance.now();
const server = await openServer(join(projectRoot, '.data', `pg-examples-${process.pid}`), { persistent: false, durable: false });
const adminUrl = process.env.DATABASE_URL ? withDatabase(server.url, 'postgres') : server.url;
const template = `lib_tpl_${randomToken(8).toLowerCase()}`;
const templateUrl = await ensureDatabase(adminUrl, template);
const db = createKnex(templateUrl, 2);
await migrate(db, templateUrl, LIBRARY_MIGRATIONS);
await db.destroy();

const totals = { passed: 0, failed: 0, skipped: 0 };
for (const file of files) {
  const clone = `lib_${randomToken(8).toLowerCase()}`;
  const url = await ensureDatabase(adminUrl, clone, template);
  const output = await new Promise<string>((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', file], {
      cwd: projectRoot, env: { ...process.env, LIBRARY_DATABASE_URL: url, FORCE_COLOR: '0', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
        RATE_LIMIT_MULTIPLIER: '1000', WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true' },
    }, (error, stdout, stderr) => resolve(`${stdout}${error && !/Total:/.test(stdout) ? `\n   FAIL  ${relative(projectRoot, file)} exited: ${stderr}\n\n  Total:     1\n  Passed:    0\n` : ''}`));
  });
  process.stdout.write(`${relative(projectRoot, file)}\n${output.replace(/\n\s*Total:[\s\S]*$/, '\n\n')}`);
  const counts = fileCounts(output, []);
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  await dropDatabase(adminUrl, clone);
}
await dropDatabase(adminUrl, template);
await server.stop();
console.log(`files: ${files.length}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(closingLine(totals));
process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
