// `npm start`, `npm run worker` and `npm run cli`: run the compiled server (dist/bin/<entry>.js), building it first
// when dist/ is missing or older than the sources (bin/build.mjs), so a fresh clone or an edit needs no separate build
// step. Development and tests run the TypeScript directly with tsx (`npx tsx bin/start.ts`).
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { DIST, distIsStale } from './dist-sources.mjs';

const entry = process.argv[2];
if (entry !== 'start' && entry !== 'worker' && entry !== 'cli') {
  console.error('usage: node bin/launch.mjs start|worker|cli [arguments]');
  process.exit(2);
}
// The entry reads its own arguments from process.argv[2] on, as when it is run directly.
process.argv.splice(2, 1);
if (distIsStale()) {
  const { buildDist } = await import('./build.mjs');
  await buildDist();
}
await import(pathToFileURL(join(DIST, 'bin', `${entry}.js`)).href);
