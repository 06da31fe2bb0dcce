// `npm test`: one PostgreSQL (DATABASE_URL's server, or an embedded one), one migrated template database,
// every test file cloning it; uvu runs the files and this prints the closing "N passed, N failed, N skipped" line
// (a test that skipped itself at run time, test/helpers/skip.ts, is counted skipped, not passed).
import { fork } from 'node:child_process';
import { availableParallelism, tmpdir } from 'node:os';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { openServer, createKnex, withDatabase } from '../runtime/db.js';
import { ensureDatabase, dropDatabase } from '../runtime/bootstrap.js';
import { migrate } from '../runtime/migrate.js';
import { randomToken } from '../runtime/ids.js';
import { projectRoot } from '../runtime/project-root.js';
import type { FileRun } from './helpers/uvu-entry.js';
import { knownCost } from './helpers/test-costs.js';
import { closingLine } from './helpers/skip.js';
import { fileCounts } from './helpers/uvu-counts.js';

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

const env = {
  ...process.env, TEST_ADMIN_URL: adminUrl, TEST_TEMPLATE: template, FORCE_COLOR: '0', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
  // Tests run requests as fast as they can on one credential: budgets a thousand times the spec's, so that only
  // the rate limit tests (which set their own) ever meet one.
  RATE_LIMIT_MULTIPLIER: process.env.RATE_LIMIT_MULTIPLIER ?? '1000',
  // Tests deliver webhooks to listeners on loopback, as a developer does (the default on a loopback HOST, said
  // outright here so that no test depends on HOST); test/webhooks/destinations.test.ts turns it off where it tests that.
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: process.env.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS ?? 'true',
  FILE_STORAGE_DIR: fileStore,
};

// Workers pull files from one queue, the slowest known first, so that the run ends when the last long file does.
const workers = Math.max(1, Number(process.env.TEST_WORKERS ?? Math.min(2, availableParallelism())));
const queue = [...files].sort((a, b) => knownCost(b) - knownCost(a));
const totals = { total: 0, passed: 0, failed: 0, skipped: 0 };
const durations: { file: string; ms: number }[] = [];
const selfSkips: string[] = [];
let crashed = 0;
const started = performance.now();

function runWorker(): Promise<void> {
  return new Promise((resolve) => {
    const child = fork(join(projectRoot, 'test/helpers/uvu-entry.ts'), [], { env, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let current: string | undefined;
    const next = () => {
      current = queue.shift();
      child.send(current ? { run: current } : { done: true });
    };
    child.on('message', (message: { ready?: true } & Partial<FileRun>) => {
      if (message.output !== undefined) {
        // uvu's per-file summary is replaced by the run's own at the end.
        process.stdout.write(message.output.replace(/\n\s*Total:[\s\S]*$/, '\n\n'));
        const counts = fileCounts(message.output, message.skips!);
        for (const key of ['total', 'passed', 'failed', 'skipped'] as const) totals[key] += counts[key];
        for (const reason of message.skips!) selfSkips.push(`${relative(projectRoot, message.file!)}: ${reason}`);
        durations.push({ file: relative(projectRoot, message.file!), ms: message.ms! });
      }
      next();
    });
    child.on('exit', (code) => {
      if (current) {
        crashed += 1;
        console.log(`\n   FAIL  the worker running ${relative(projectRoot, current)} exited (code ${code}) before it finished\n`);
      }
      resolve();
    });
  });
}

await Promise.all(Array.from({ length: workers }, runWorker));
const output = `\n  Total:     ${totals.total}\n  Passed:    ${totals.passed}\n  Skipped:   ${totals.skipped}\n  Duration:  ${(performance.now() - started).toFixed(2)}ms (${workers} workers)\n`;
console.log(output);
console.log(`slowest files: ${durations.sort((a, b) => b.ms - a.ms).slice(0, 8).map((d) => `${d.file} ${(d.ms / 1000).toFixed(1)} s`).join(', ')}`);

await dropDatabase(adminUrl, template);
await server.stop();
rmSync(fileStore, { recursive: true, force: true });

const { total, passed, skipped } = totals;
const failed = totals.failed + crashed;
console.log(`files: ${files.map((f) => relative(projectRoot, f)).length}`);
for (const s of selfSkips) console.log(`skipped ${s}`);
console.log(closingLine({ passed, failed, skipped }));
process.exit(failed > 0 || total === 0 ? 1 : 0);
