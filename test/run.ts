// `npm test`: one PostgreSQL (DATABASE_URL's server, or an embedded one), one migrated template database,
// every test file cloning it; uvu runs the files and this prints the closing "N passed, N failed" line.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { openServer, createKnex, withDatabase } from '../runtime/db.js';
import { ensureDatabase, dropDatabase } from '../runtime/bootstrap.js';
import { migrate } from '../runtime/migrate.js';
import { randomToken } from '../runtime/ids.js';
import { projectRoot } from '../runtime/project-root.js';

function testFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'helpers' ? [] : testFiles(full);
    return name.endsWith('.test.ts') ? [full] : [];
  });
}

const filters = process.argv.slice(2);
const files = testFiles(join(projectRoot, 'test')).filter((f) => filters.length === 0 || filters.some((text) => f.includes(text)));

// With DATABASE_URL, its server hosts a fresh template (and per-file clones) for this run only.
const server = await openServer(join(projectRoot, '.data', `pg-test-${process.pid}`), { persistent: false, durable: false });
const adminUrl = process.env.DATABASE_URL ? withDatabase(server.url, 'postgres') : server.url;
const template = `tpl_${randomToken(8).toLowerCase()}`;
const templateUrl = await ensureDatabase(adminUrl, template);
const db = createKnex(templateUrl, 2);
await migrate(db, templateUrl);
await db.destroy();

// Files and exports (runtime/file-storage.ts) write to a directory of this run's, never to .data/files.
const fileStore = mkdtempSync(join(tmpdir(), 'test-files-'));

const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'test/helpers/uvu-entry.ts'), ...files], {
  env: {
    ...process.env, TEST_ADMIN_URL: adminUrl, TEST_TEMPLATE: template, FORCE_COLOR: '0', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    // Tests run requests as fast as they can on one credential: budgets a thousand times the spec's, so that only
    // the rate limit tests (which set their own) ever meet one.
    RATE_LIMIT_MULTIPLIER: process.env.RATE_LIMIT_MULTIPLIER ?? '1000',
    FILE_STORAGE_DIR: fileStore,
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let output = '';
child.stdout.on('data', (chunk: Buffer) => {
  output += chunk.toString();
  process.stdout.write(chunk);
});
const exitCode: number = await new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));

await dropDatabase(adminUrl, template);
await server.stop();
rmSync(fileStore, { recursive: true, force: true });

const total = Number(/Total:\s+(\d+)/.exec(output)?.[1] ?? 0);
const passed = Number(/Passed:\s+(\d+)/.exec(output)?.[1] ?? 0);
const skipped = Number(/Skipped:\s+(\d+)/.exec(output)?.[1] ?? 0);
const failed = Math.max(total - passed - skipped, exitCode !== 0 && total === passed ? 1 : 0);
console.log(`files: ${files.map((f) => relative(projectRoot, f)).length}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || total === 0 || exitCode !== 0 ? 1 : 0);
