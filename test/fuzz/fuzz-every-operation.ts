// Schema-driven fuzzing of every operation in generated/routes.ts, at one version (every-operation-*.test.ts: the
// latest and 2025-01-01, two files so that two test workers share the work): valid base
// inputs from each version's own OpenAPI document, then one location at a time set to a boundary or hostile value
// (operation-requests.ts, schema-values.ts). Every answer is below 500 and every 4xx is the error envelope
// (response-check.ts); no refused request changes a row count (row-counts.ts). The operation list is iterated, never
// named, so new operations are fuzzed as they are added.
// FUZZ_RUNS=<n> requests per operation and version (default 80; past the enumerated count, further passes draw
// other values); FUZZ_SEED=<n> another seed. A failure prints the request, which replays with the same seed.
import { join } from 'node:path';
import { readOpenApiDocument } from '../../runtime/openapi-store.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestApp, type TestApp } from '../helpers/harness.js';
import { operations } from '../../generated/routes.js';
import type { OperationDefinition } from '../../runtime/operation.js';
import { validate } from '../../runtime/validation.js';
import { normaliseQuery } from '../../runtime/query-params.js';
import { headVersion } from '../../runtime/versions.js';
import { projectRoot } from '../../runtime/project-root.js';
import { makeWorld, type World } from './fuzz-world.js';
import { docOperations, OperationRequests, pathParamPrefix, type FuzzRequest } from './operation-requests.js';
import { Gen } from './schema-values.js';
import { RowCounts, WriteGuard } from './row-counts.js';
import { describeExchange, sendChecked } from './response-check.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261121);
const RUNS = Number(process.env.FUZZ_RUNS ?? 80);
const SHOWN_FAILURES = 25;



/** Reads run before writes, deletes last, so that the world's objects live as long as possible. */
const METHOD_ORDER: Record<string, number> = { GET: 0, POST: 1, PUT: 1, PATCH: 1, DELETE: 2 };

/** Whether the operation's own validators refuse the request (then no handler runs), as the server would parse it. */
function refusedBeforeHandler(op: OperationDefinition, version: string, req: FuzzRequest): boolean {
  const validators = op.versions[version];
  if (!validators || !op.handler || req.parsed.malformed) return true;
  try {
    validate('path', validators.path, { ...req.parsed.path });
    const params = new URLSearchParams(req.parsed.query);
    const query: Record<string, string | string[]> = {};
    for (const key of new Set(params.keys())) {
      const all = params.getAll(key);
      query[key] = all.length <= 1 ? all[0] : all;
    }
    validate('query', validators.query, normaliseQuery(query));
    if (validators.body) {
      const body = req.parsed.body ?? {};
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return true;
      validate('body', validators.body, JSON.parse(JSON.stringify(body)));
    }
    return false;
  } catch {
    return true;
  }
}

/** Fisher-Yates with the seeded generator. */
function shuffled<T>(items: T[], g: Gen): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(g.next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const seedOf = (text: string) => [...text].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, SEED);

export function fuzzAt(version: string): void {
  const t = suite(`fuzz: every operation from its schemas at ${version}`);
  let app: TestApp;
  let world: World;
  let counts: RowCounts;
  t.before(async () => {
    app = await startTestApp();
    world = await makeWorld(app);
    counts = new RowCounts(app.db, app.databaseUrl);
    await counts.init();
  });
  t.after(async () => {
    await counts?.close();
    await app.close();
  });
  const doc = JSON.parse(readOpenApiDocument(join(projectRoot, 'generated'), version));
  t('no operation answers a 5xx, every 4xx is the envelope, and no refused request writes a row', () => fuzz(app, world, counts, version, doc));
  t.run();
}

async function fuzz(app: TestApp, world: World, counts: RowCounts, version: string, doc: any): Promise<void> {
  const started = Date.now();
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  const cursors = new Map<string, string>();
  let sent = 0;
  let groups = 0;
  const headersFor = (op: OperationDefinition, version: string, g: Gen, base: boolean) => {
    const kind = base ? op.auth[0] : g.pick(op.auth);
    const credential = world.credentials[kind];
    return { authorization: kind === 'client' ? credential : `Bearer ${credential}`, 'api-version-date': version };
  };
  const guard = new WriteGuard<{ req: FuzzRequest; headers: Record<string, string> }>(counts, async ({ req, headers }) => {
    sent += 1;
    const sentReq = { method: req.method, url: `${app.url}${req.target}`, contentType: req.contentType, body: req.body, label: req.label };
    try {
      const res = await sendChecked(sentReq, headers);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      // A real cursor of this list, for the requests that page on from it.
      const cursor = res.status === 200 ? /"end_cursor":"([^"]+)"/.exec(res.text)?.[1] : undefined;
      if (cursor) cursors.set(`${req.label.split(' ')[0]} ${headers['api-version-date']}`, cursor);
      if (process.env.FUZZ_LOG && req.label.includes(process.env.FUZZ_LOG)) console.log(describeExchange(sentReq, res));
      return res.status;
    } catch (e) {
      failures.push(`${headers['api-version-date']} ${(e as Error).message}`);
      return 599;
    }
  }, ({ req, headers }, status, changes) => {
    // A refusal under an idempotency key is stored to be replayed (older pins take the key in the body too).
    const keyed = typeof req.body === 'string' && req.body.includes('"idempotency_key"');
    if (keyed && changes.every((c) => c.startsWith('public.idempotency_keys'))) return;
    failures.push(`${headers['api-version-date']} refused but wrote rows (${changes.join('; ')}): ${describeExchange(
      { method: req.method, url: req.target, body: req.body, label: req.label }, { status, text: '', headers: new Headers() })}`);
  });
  await guard.start();

  const ordered = [...operations].sort((a, b) => METHOD_ORDER[a.method] - METHOD_ORDER[b.method]);
  const docOps = docOperations(doc);
  for (const op of ordered) {
    {
      const docOp = docOps.get(op.id);
      if (!docOp) continue;
      groups += 1;
      const realPathId = (param: string) => {
        const prefix = pathParamPrefix(doc, docOp.path, param);
        // One of the first few real ids (the fuzzer's own objects come first), so one spent object does not stop them all.
        return (prefix && pick(world.pool.real(prefix).slice(0, 3))) ?? world.accountId;
      };
      let pick: <T>(items: T[]) => T | undefined = () => undefined;
      for (let pass = 0, left = RUNS; left > 0; pass++) {
        const g = new Gen(world.pool, seedOf(`${op.id} ${version} ${pass}`));
        pick = (items) => (items.length ? g.pick(items) : undefined);
        const builder = new OperationRequests(docOp, g, realPathId, (param) => pathParamPrefix(doc, docOp.path, param),
          () => cursors.get(`${op.id} ${version}`));
        const all = builder.all();
        // Each pass starts with the two bases; the rest is a seeded sample of every location and value.
        const chosen = [...all.slice(0, 2), ...shuffled(all.slice(2), g)].slice(0, left);
        left -= chosen.length;
        for (const [i, make] of chosen.entries()) {
          const req = make();
          const headers = headersFor(op, version, g, i < 2);
          // Reads write nothing: they share the batches of refused requests, whose counts catch a read that did.
          await guard.run({ req, headers }, op.method === 'GET' || refusedBeforeHandler(op, version, req));
        }
      }
      await guard.flush();
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
  console.log(`fuzz: ${sent} requests to ${groups} operation versions (FUZZ_RUNS=${RUNS}, seed ${SEED}) in ${seconds} s; `
    + `statuses ${byStatus}; ${counts.snapshots} row-count snapshots in ${(counts.milliseconds / 1000).toFixed(1)} s`);
  const expected = version === headVersion() ? operations.filter((op) => !op.gone).length : operations.filter((op) => docOps.has(op.id)).length;
  assert.ok(groups >= expected && groups > 0, `${groups} operations fuzzed at ${version}, of ${expected}`);
  if (failures.length) {
    assert.unreachable(`${failures.length} failures (seed ${SEED}, FUZZ_RUNS=${RUNS}); the first ${Math.min(failures.length, SHOWN_FAILURES)}:\n`
      + failures.slice(0, SHOWN_FAILURES).join('\n'));
  }
}
