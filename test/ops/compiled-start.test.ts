// `npm start` runs compiled JavaScript (bin/launch.mjs: dist/ built by bin/build.mjs), rebuilding it when a source
// changed, and serves the same API as the TypeScript run by tsx.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { makeOwner } from '../helpers/fixtures.js';
import { freePort, killPid, startApiCluster, withinStep } from '../helpers/processes.js';
import { Agent, get as httpGet } from 'node:http';
import { projectRoot } from '../../runtime/project-root.js';
import { distIsStale, DIST } from '../../bin/dist-sources.mjs';
import { codeCacheRunner } from '../../bin/build.mjs';
import { startTestS3 } from '../storage/s3-server.js';
import { skip } from '../helpers/skip.js';

const t = suite('ops: npm start runs the compiled server');
let app: TestApp;
t.before(async () => { app = await startTestApp(); });
t.after(async () => { await app.close(); });

t('a changed source makes dist/ stale; npm start rebuilds it and serves the API from it', async () => {
  // A source touched after the last build (its modification time moved) makes the bundle stale.
  const source = join(projectRoot, 'runtime', 'logger.ts');
  const { atime } = statSync(source);
  utimesSync(source, atime, new Date());
  assert.ok(distIsStale(), 'dist/ is stale after a source changed');

  const o = await makeOwner(app.db);
  const cluster = await startApiCluster(app.databaseUrl, { processes: 1, runWorker: false, compiled: true });
  try {
    assert.not.ok(distIsStale(), 'npm start rebuilt dist/ from the sources as they are');
    const [pid] = cluster.pids();
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    assert.ok(command.some((arg) => arg === join(DIST, 'bin', 'api-process.cjs')), `the API process runs dist/bin/api-process.cjs: ${command.join(' ')}`);
    assert.not.ok(command.some((arg) => arg.includes('tsx')), 'no tsx at run time');
    // The first process after a build (here the primary's warm-up server) wrote the code cache once its modules ran
    // (bin/code-cache.cjs), marked partial; the API process that ran from it writes it again once it has answered its
    // first API request, with that request's functions compiled too.
    const cache = join(DIST, 'bin', 'api-process.bundle.cjs.v8cache');
    const atStart = statSync(cache);
    assert.ok(existsSync(`${cache}.partial`), 'the cache is marked partial until a request has run');
    const res = await fetch(`${cluster.url}/accounts/${o.accountId}`, { headers: { authorization: `Bearer ${o.key}` } });
    assert.is(res.status, 200);
    assert.is((await res.json()).id, o.accountId);
    const until = Date.now() + 10_000;
    while (statSync(cache).mtimeMs === atStart.mtimeMs && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const rewritten = statSync(cache);
    assert.ok(rewritten.mtimeMs > atStart.mtimeMs, 'the cache was written again after the first API request');
    assert.ok(rewritten.size > atStart.size, `it holds more compiled code (${atStart.size} -> ${rewritten.size} bytes)`);
    assert.not.ok(existsSync(`${cache}.partial`), 'and is no longer marked partial');
    const openapi = await fetch(`${cluster.url}/openapi.json`);
    assert.is(openapi.status, 200, 'data files (generated/openapi.json) resolve from the bundle');
    // The primary sums the API processes' metrics with prom-client loaded on demand (bin/prom-aggregator.ts).
    const metrics = await fetch(`${new URL(cluster.url).origin}/metrics`);
    assert.is(metrics.status, 200, `GET /metrics from the bundle: ${await metrics.clone().text()}`);
    assert.match(await metrics.text(), /^http_requests_total\{/m);
  } finally {
    await cluster.stop();
  }
});

t('the API process is compiled from the code cache its first run wrote, which the next run takes as it is', async () => {
  // The first API process after a build writes the cache (bin/code-cache.cjs); one whose cache V8 rejected would
  // write it again, so an unchanged file is an accepted cache.
  const cache = join(DIST, 'bin', 'api-process.bundle.cjs.v8cache');
  assert.ok(existsSync(cache), 'the first run wrote the code cache');
  const written = statSync(cache);
  assert.ok(written.size > 100_000, `the cache holds compiled code (${written.size} bytes)`);
  const o = await makeOwner(app.db);
  const cluster = await startApiCluster(app.databaseUrl, { processes: 1, runWorker: false, compiled: true });
  try {
    const res = await fetch(`${cluster.url}/accounts/${o.accountId}`, { headers: { authorization: `Bearer ${o.key}` } });
    assert.is(res.status, 200);
    assert.is(statSync(cache).mtimeMs, written.mtimeMs, 'the second run read the cache and did not rewrite it');
  } finally {
    await cluster.stop();
  }
});

t('a package loaded on demand (the S3 store\'s SDK) loads in a process compiled from the code cache', async () => {
  // V8 drops a script's dynamic-import options when it is compiled from a code cache: an import() in the bundle
  // failed on every start after the first (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING). The bundle now holds none.
  const s3 = await startTestS3();
  if ('unavailable' in s3) return skip(s3.unavailable);
  const { settings } = s3;
  const env = { FILE_STORAGE: 's3', S3_BUCKET: settings.bucket, S3_ENDPOINT: settings.endpoint!, S3_REGION: settings.region,
    S3_FORCE_PATH_STYLE: 'true', S3_ACCESS_KEY_ID: settings.credentials!.accessKeyId, S3_SECRET_ACCESS_KEY: settings.credentials!.secretAccessKey };
  const o = await makeOwner(app.db);
  try {
    for (const run of ['first', 'second']) {
      const cluster = await startApiCluster(app.databaseUrl, { processes: 1, runWorker: false, compiled: true, env });
      try {
        const headers = { authorization: `Bearer ${o.key}`, 'content-type': 'application/json' };
        const created = await fetch(`${cluster.url}/files`, { method: 'POST', headers, body: JSON.stringify({ filename: `${run}.txt` }) });
        assert.is(created.status, 201, await created.clone().text());
        const file = await created.json();
        const put = await fetch(file.upload_url, { method: 'PUT', body: `${run} bytes`, headers: file.upload_headers });
        assert.is(put.status, 200, `${run} start: ${await put.clone().text()}`);
        const ready = await (await fetch(`${cluster.url}/files/${file.id}`, { headers })).json();
        assert.is(ready.status, 'ready');
        assert.is(await (await fetch(ready.url)).text(), `${run} bytes`);
      } finally {
        await cluster.stop();
      }
    }
    assert.ok(existsSync(join(DIST, 'bin', 'api-process.bundle.cjs.v8cache')), 'the second start ran from the code cache');
  } finally {
    await s3.close();
  }
});

t('the bundle holds no import(), which a process compiled from the code cache could not run', () => {
  const bundle = readFileSync(join(DIST, 'bin', 'api-process.bundle.cjs'), 'latin1');
  assert.not.match(bundle, /\bimport\((?!\))/);
});

t('the bundle holds one mime table, whose extension maps are filled on first use, not at every start', () => {
  // bin/build.mjs: koa's `accepts` brings an older mime-types (and mime-db) of its own; the bundle holds the newer one
  // alone, and mime-types fills its maps when they are first read instead of as it loads.
  const sources: string[] = JSON.parse(readFileSync(join(DIST, 'bin', 'api-process.bundle.cjs.map'), 'utf8')).sources;
  assert.equal(sources.filter((s) => s.endsWith('mime-db/db.json')).map((s) => s.replace(/^(\.\.\/)+/, '')), ['node_modules/mime-db/db.json']);
  assert.equal(sources.filter((s) => s.endsWith('mime-types/index.js')).map((s) => s.replace(/^(\.\.\/)+/, '')), ['node_modules/mime-types/index.js']);
  const bundle = readFileSync(join(DIST, 'bin', 'api-process.bundle.cjs'), 'latin1');
  assert.match(bundle, /Object\.defineProperty\(\w+,"extensions",\{enumerable:!0,configurable:!0,get:function\(\)\{return \w+\(\)\.extensions\}\}\)/,
    'the maps are read through a getter that fills them');
});

t('the runner reads an ASCII bundle as Latin-1 and any other as UTF-8, settled when it is written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'runner-'));
  try {
    writeFileSync(join(dir, 'ascii.bundle.cjs'), '(function () { return "plain"; });');
    writeFileSync(join(dir, 'utf8.bundle.cjs'), '(function () { return "caf\u00e9"; });');
    assert.match(codeCacheRunner('./code-cache.cjs', join(dir, 'ascii.bundle.cjs')), /join\(__dirname, "ascii\.bundle\.cjs"\), "latin1"\);/);
    assert.match(codeCacheRunner('./code-cache.cjs', join(dir, 'utf8.bundle.cjs')), /join\(__dirname, "utf8\.bundle\.cjs"\), "utf8"\);/);
    assert.match(readFileSync(join(DIST, 'bin', 'api-process.cjs'), 'utf8'), /"latin1"\);/, 'the server\'s bundle is ASCII');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

t('with DATABASE_URL the primary answers the first requests itself, then hands the socket over without a refused or cut request; a process replaced later accepts from the same socket', async () => {
  const o = await makeOwner(app.db);
  // A keep-alive client: the warm-up server answers each connection once (Connection: close), an API process keeps it.
  const agent = new Agent({ keepAlive: true });
  const answers: { status: number; connection: string | undefined }[] = [];
  const failures: string[] = [];
  let asking = true;
  let asked: Promise<void> | undefined;
  const cluster = await startApiCluster(app.databaseUrl, {
    processes: 1, runWorker: false, compiled: true,
    onWarmUp: (url) => {
      // From the moment the warm-up server listens, through the hand-over, one request after another.
      asked = (async () => {
        while (asking) {
          await getAccount(url, o, agent).then((a) => { answers.push(a); }, (e: Error) => { failures.push(e.message); });
        }
      })();
    },
  });
  try {
    await new Promise((r) => setTimeout(r, 300)); // past the hand-over: the API process listens
    asking = false;
    assert.ok(asked, 'the primary\'s warm-up server listened before the API process');
    await asked;
    assert.equal(failures, [], 'no request was refused or cut');
    assert.ok(answers.every((a) => a.status === 200), JSON.stringify(answers));
    assert.is(answers[0]?.connection, 'close', 'the first answer came from the warm-up server');
    assert.is(answers.at(-1)?.connection, 'keep-alive', 'the last came from the API process');

    // The primary kept a copy of the socket from the API process: a connection made while the only API process is
    // dead waits in the socket's queue and is answered by its replacement.
    const [pid] = cluster.pids();
    const replaced = cluster.nextListening();
    await killPid(pid);
    const meanwhile = getAccount(cluster.url, o, false);
    await replaced;
    assert.is((await meanwhile).status, 200);
  } finally {
    agent.destroy();
    await cluster.stop();
  }
});

/** GET /accounts/{id} through node:http (`agent` false: a connection of its own), with the answer's Connection. */
function getAccount(base: string, o: { accountId: string; key: string }, agent: Agent | false) {
  return new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    const req = httpGet(`${base}/accounts/${o.accountId}`, { agent, headers: { authorization: `Bearer ${o.key}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

t('a SIGTERM at any moment after the warm-up server first answers stops npm start and its API processes', async () => {
  // The primary loads its own modules while the warm-up server answers, then takes the signals over from the
  // embedded server's package (bin/start.ts): a SIGTERM caught just before that was once lost, and the start ran on.
  const o = await makeOwner(app.db);
  for (const delayMs of [0, 25, 50, 75, 100, 125, 150, 200]) {
    const port = await freePort();
    const primary = fork(join(projectRoot, 'bin', 'launch.mjs'), ['start'], {
      env: { ...process.env, DATABASE_URL: app.databaseUrl, PORT: String(port), LOG_LEVEL: 'silent', RUN_WORKER: 'false', WEB_CONCURRENCY: '1' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const exit = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      primary.on('message', (m: { type?: string; url?: string }) => { if (m?.type === 'warm-up-listening') resolve(`${m.url}/api/v1`); });
      void exit.then((code) => reject(new Error(`npm start exited (code ${code}) before its warm-up server listened`)));
    });
    assert.is((await getAccount(url, o, false)).status, 200);
    await new Promise((r) => setTimeout(r, delayMs));
    primary.kill('SIGTERM');
    try {
      assert.is(await withinStep(exit, 20_000, () => `npm start's exit, SIGTERM ${delayMs} ms after the first answer`), 0,
        `SIGTERM ${delayMs} ms after the first answer: npm start exits, and cleanly`);
    } finally {
      primary.kill('SIGKILL');
    }
    assert.equal(apiProcessesOn(port), [], `SIGTERM ${delayMs} ms after the first answer: no API process outlives it`);
  }
});

t('a bad setting checked after the fork stops npm start and the API processes it had started', async () => {
  // The primary forks its API processes before it checks WEBHOOK_ALLOW_PRIVATE_DESTINATIONS (bin/start.ts): the
  // refusal must still end the start, and take the processes already loading with it.
  const port = await freePort();
  // The primary records each process it forks as it forks it (test/helpers/record-forks.mjs): a process refused
  // within milliseconds of its fork is still known, however loaded the machine.
  const forksDir = mkdtempSync(join(tmpdir(), 'forks-'));
  const forkedPids = join(forksDir, 'pids');
  const primary = spawn(process.execPath, ['--import', pathToFileURL(join(projectRoot, 'test', 'helpers', 'record-forks.mjs')).href,
    join(projectRoot, 'bin', 'launch.mjs'), 'start'], {
    env: { ...process.env, DATABASE_URL: app.databaseUrl, PORT: String(port), LOG_LEVEL: 'silent', RUN_WORKER: 'false',
      WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'sometimes', FORKED_PIDS_FILE: forkedPids },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  primary.stderr!.on('data', (chunk) => { stderr += chunk; });
  const code = await new Promise<number | null>((resolve) => primary.once('exit', resolve));
  assert.is(code, 1);
  assert.match(stderr, /WEBHOOK_ALLOW_PRIVATE_DESTINATIONS must be true or false, not "sometimes"/);
  const forked = existsSync(forkedPids) ? readFileSync(forkedPids, 'utf8').split('\n').filter(Boolean).map(Number) : [];
  rmSync(forksDir, { recursive: true, force: true });
  assert.ok(forked.length > 0, 'the API process was forked before the check');
  // A forked process is gone once the primary has exited (reparented, it is reaped at once); the second check also
  // catches one forked some other way.
  assert.equal(forked.filter(isApiProcess), [], 'no forked API process outlives the refused start');
  assert.equal(apiProcessesOn(port), [], 'no API process outlives the refused start');
});

/** Whether `pid` is a live API process (a reaped pid has no /proc entry; a zombie has an empty command line). */
function isApiProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('api-process.cjs');
  } catch {
    return false;
  }
}

/** The API processes (dist/bin/api-process.cjs) started for `port`. */
function apiProcessesOn(port: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || !isApiProcess(Number(entry))) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`PORT=${port}`)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

t.run();
