// `npm start`, `npm run worker` and `npm run cli`: run the compiled server (dist/bin/<entry>.js), building it first
// when dist/ is missing or older than the sources (bin/build.mjs), so a fresh clone or an edit needs no separate build
// step. Development and tests run the TypeScript directly with tsx (`npx tsx bin/start.ts`).
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import cluster from 'node:cluster';
import { DIST, distIsStale, root } from './dist-sources.mjs';
import { apiBootFile, setUpApiCluster } from './api-cluster.mjs';
import { preloadApiBundle } from './warm-up-load.mjs';

const entry = process.argv[2];
if (entry !== 'start' && entry !== 'worker' && entry !== 'cli') {
  console.error('usage: node bin/launch.mjs start|worker|cli [arguments]');
  process.exit(2);
}
// The entry reads its own arguments from process.argv[2] on, as when it is run directly.
process.argv.splice(2, 1);
if (entry === 'start') {
  // The first API process boots now, beside the check below and the primary's loading, and loads its code when the
  // primary's supervisor (bin/supervisor.ts) takes it over: Node's own start (~45 ms) is off the path to the first
  // answer. Measured: ~35 ms less from launch to the first 200.
  setUpApiCluster(join(DIST, 'bin', 'api-process.cjs'), apiBootFile(root));
  cluster.fork();
}
if (distIsStale()) {
  const { buildDist } = await import('./build.mjs');
  await buildDist();
}
// With DATABASE_URL the primary answers the first requests itself (bin/warm-up.ts): its code loads now, before the
// primary's own.
const runner = join(DIST, 'bin', 'api-process.cjs');
if (entry === 'start' && process.env.DATABASE_URL && existsSync(runner)) preloadApiBundle(runner);
await import(pathToFileURL(join(DIST, 'bin', `${entry}.js`)).href);
