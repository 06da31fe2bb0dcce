// One valid call of every operation at a version, driven by that version's generated OpenAPI document: inputs from
// its schemas (test/fuzz/operation-requests.ts, the fuzzer's valid bases), path ids from the smoke world's objects.
// Each answer must be below 500 and a status the document declares for the operation. Creates go first, then reads,
// other writes, and deletes last (across the versions), so that the world's objects live as long as possible.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../runtime/project-root.js';
import { operations } from '../../generated/routes.js';
import { v2Routes, v2Settings } from '../../generated/v2-routes.js';
import { docOperations, OperationRequests, pathParamPrefix, type DocOperation } from '../fuzz/operation-requests.js';
import { Gen, type IdPool } from '../fuzz/schema-values.js';
import type { Checks } from './checks.js';
import { expect } from './checks.js';
import type { Credentials, SmokeWorld } from './seed.js';

export function openApiDocument(version: string): any {
  return JSON.parse(readFileSync(join(projectRoot, 'generated/openapi', `${version}.json`), 'utf8'));
}

/** Creates first (a POST to a collection), so that reads and writes find objects of every kind; deletes last. */
const phaseOf = (op: { method: string; pathParams: string[] }) =>
  op.method === 'POST' && op.pathParams.length === 0 ? 0 : op.method === 'GET' ? 1 : op.method === 'DELETE' ? 3 : 2;
/** The v2 routes' order: reads, writes, deletes. */
const PHASE: Record<string, number> = { GET: 0, POST: 1, PUT: 1, PATCH: 1, DELETE: 2 };
const authOf = new Map(operations.map((op) => [op.id, op.auth]));

interface Planned { version: string; doc: any; op: DocOperation; declared: string[]; credential: keyof Credentials | null }

/** Every operation of each version's document, in the order they are called. */
export function plan(versions: string[]): Planned[] {
  const out: Planned[] = [];
  for (const version of versions) {
    const doc = openApiDocument(version);
    for (const op of docOperations(doc).values()) {
      const described = doc.paths[op.path][op.method.toLowerCase()];
      // The credential the document names first; the route's own list where the document names none.
      const security: Record<string, unknown>[] | undefined = described.security;
      const scheme = security?.length ? Object.keys(security[0])[0] : security ? null : authOf.get(op.id)?.[0] ?? null;
      out.push({ version, doc, op, declared: Object.keys(described.responses), credential: scheme as keyof Credentials | null });
    }
  }
  return out.sort((a, b) => phaseOf(a.op) - phaseOf(b.op));
}

export interface Tally { calls: number; operations: number; reached2xx: number; byStatus: Map<number, number> }

/** `idPool` reads the ids there are (again after the creates, which add objects of kinds the seeding made none of). */
export async function checkOperations(c: Checks, apiUrl: string, world: SmokeWorld, idPool: () => Promise<IdPool>, versions: string[]): Promise<Map<string, Tally>> {
  const tallies = new Map(versions.map((v) => [v, { calls: 0, operations: 0, reached2xx: 0, byStatus: new Map() } as Tally]));
  let pool = await idPool();
  let phase = 0;
  for (const { version, doc, op, declared, credential } of plan(versions)) {
    if (phaseOf(op) !== phase) {
      if (phase === 0) pool = await idPool();
      phase = phaseOf(op);
    }
    const tally = tallies.get(version)!;
    tally.operations += 1;
    const realPathId = (param: string) => {
      const prefix = pathParamPrefix(doc, op.path, param);
      return (prefix && pool.real(prefix)[0]) ?? world.accountId;
    };
    const seed = [...`${op.id} ${version}`].reduce((h, ch) => (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0, 20261128);
    const builder = new OperationRequests(op, new Gen(pool, seed), realPathId, (param) => pathParamPrefix(doc, op.path, param), () => undefined);
    // The required inputs first; when those are refused, once more with every input (some rules need an optional one).
    for (const full of [false, true]) {
      const req = builder.request(full ? 'every input' : 'required inputs', builder.base(full));
      const headers: Record<string, string> = { accept: 'application/json', 'api-version-date': version };
      if (credential) headers.authorization = credential === 'client' ? world.credentials.client : `Bearer ${world.credentials[credential]}`;
      if (req.contentType) headers['content-type'] = req.contentType;
      let status = 0;
      await c.check(`${version} ${op.method} ${op.path} (${op.id}, ${req.label.split(' ').slice(1).join(' ')})`, async () => {
        const res = await fetch(`${apiUrl}${req.target}`, { method: req.method, headers, body: req.body as string | undefined, signal: AbortSignal.timeout(30_000) });
        const text = await res.text();
        status = res.status;
        const exchange = () => `${req.method} ${req.target.slice(0, 200)} ${typeof req.body === 'string' ? req.body.slice(0, 300) : ''} -> ${res.status} ${text.slice(0, 300)}`;
        // SMOKE_LOG=1 prints every exchange that did not reach a 2xx, to see what the world lacks.
        if (process.env.SMOKE_LOG && (res.status < 200 || res.status >= 300)) console.log(`  ${version} ${exchange()}`);
        expect(res.status < 500, `server error: ${exchange()}`);
        expect(declared.includes(String(res.status)), `status ${res.status} is not one the document declares (${declared.join(', ')}): ${exchange()}`);
      });
      tally.calls += 1;
      tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
      if (status >= 200 && status < 300) {
        tally.reached2xx += 1;
        break;
      }
      if (op.method === 'DELETE' || status !== 400) break;
    }
  }
  return tallies;
}

/** The deprecated v2 API: every route, path parameters filled with real ids of the resource its Current operation
 * names; no OpenAPI document describes it, so each answer must be below 500, and the account (GET /company) a 200. */
export async function checkV2(c: Checks, origin: string, world: SmokeWorld, pool: IdPool, headVersion: string): Promise<void> {
  const doc = openApiDocument(headVersion);
  const current = docOperations(doc);
  for (const route of [...v2Routes].sort((a, b) => PHASE[a.method] - PHASE[b.method])) {
    const target = current.get(route.current);
    const path = route.path.replace(/:([a-z_]+)/g, (_, param: string) => {
      const currentParam = target?.pathParams.find((p) => p === param) ?? target?.pathParams[0];
      const prefix = target && currentParam ? pathParamPrefix(doc, target.path, currentParam) : undefined;
      return (prefix && pool.real(prefix)[0]) ?? 'none';
    });
    await c.check(`v2 ${route.method} ${v2Settings.basePath}${route.path}`, async () => {
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}';
      const res = await fetch(`${origin}${v2Settings.basePath}${path}`, {
        method: route.method, body, signal: AbortSignal.timeout(30_000),
        headers: { authorization: `Bearer ${world.credentials.api_key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      });
      const text = await res.text();
      expect(res.status < 500, `server error: ${route.method} ${path} -> ${res.status} ${text.slice(0, 300)}`);
      if (route.path === '/company') expect(res.status === 200, `${route.method} ${path} -> ${res.status} ${text.slice(0, 300)}`);
    });
  }
}
