// The export scenario: the connected account's payments (BENCH_PAYMENT_ROWS, 1,000,000 by default)
// exported to CSV by the generate_export task in a worker process of its own; its peak RSS must stay within 150 MB
// whatever the row count (rows are read in keyset batches and streamed to the file), and the throughput is printed.
// The worker runs compiled (bench/compiled.ts), as `npm run worker` runs from dist/ and with its Node flags: under tsx
// the compiler's own memory (about 50 MB more) would be measured, not the job's.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { newId } from '../runtime/ids.js';
import { projectRoot } from '../runtime/project-root.js';
import { headVersion } from '../runtime/versions.js';
import type { Fixture } from './seed.js';
import { compileBenchEntries } from './compiled.js';

export const EXPORT_SCENARIO = 'export of payments';
export const EXPORT_RSS_TARGET_BYTES = 150 * 1024 * 1024;

/** The Node flags `npm run worker` gives its process (package.json's worker script): the job runs as it runs there. */
function workerNodeFlags(): string[] {
  const script: string = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).scripts.worker;
  const [, ...words] = script.split(/\s+/); // after `node`
  const end = words.findIndex((word) => !word.startsWith('--'));
  return end < 0 ? words : words.slice(0, end);
}

export async function measureExport(db: Knex, databaseUrl: string, fixture: Fixture): Promise<string> {
  const id = newId('exp_');
  // The seed's payments and those the create scenarios added to the same account before this one ran.
  const [{ count: expected }] = await db('payments').where({ account_id: fixture.connectedId }).count<{ count: string }[]>('* as count');
  await db('exports').insert({ id, account_id: fixture.connectedId, resource: 'payments', api_version: headVersion(), status: 'pending' });
  mkdirSync(join(projectRoot, '.data'), { recursive: true });
  const storage = mkdtempSync(join(projectRoot, '.data', 'bench-export-'));
  try {
    const worker = (await compileBenchEntries('export', ['export-worker.ts'])).get('export-worker.ts')!;
    const out = await new Promise<string>((resolve, reject) => {
      const profile = process.env.BENCH_PROFILE === '1' ? ['--cpu-prof', '--cpu-prof-dir', join(projectRoot, '.data', 'bench-profiles')] : [];
      const child = spawn(process.execPath, [...workerNodeFlags(), ...profile, worker], {
        cwd: projectRoot, stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, DATABASE_URL: databaseUrl, BENCH_EXPORT_ID: id, FILE_STORAGE_DIR: storage, LOG_LEVEL: 'silent' },
      });
      let text = '';
      child.stdout.on('data', (d) => { text += d; });
      child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`the export worker exited with ${code}`))));
    });
    const { ms, baselineRssBytes, peakRssBytes } = JSON.parse(out.trim().split('\n').pop()!);
    const row = await db('exports').where({ id }).first();
    const file = await db('files').where({ id: row.file_id }).first();
    if (row.status !== 'completed' || row.row_count !== Number(expected)) {
      throw new Error(`${EXPORT_SCENARIO}: ${row.status} with ${row.row_count} rows, expected completed with ${expected}`);
    }
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
    const line = `${EXPORT_SCENARIO}: ${row.row_count} rows, ${mb(file.size)} MB of CSV in ${(ms / 1000).toFixed(1)} s `
      + `(${Math.round(row.row_count / (ms / 1000))} rows/s, ${(file.size / 1024 / 1024 / (ms / 1000)).toFixed(1)} MB/s); `
      + `worker peak RSS ${mb(peakRssBytes)} MB, ${mb(baselineRssBytes)} MB before the job (target <= ${mb(EXPORT_RSS_TARGET_BYTES)} MB: `
      + `${peakRssBytes <= EXPORT_RSS_TARGET_BYTES ? 'met' : 'MISSED'})`;
    console.log(line);
    return line;
  } finally {
    rmSync(storage, { recursive: true, force: true });
  }
}
