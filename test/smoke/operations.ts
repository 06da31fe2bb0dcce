// One valid call of every operation at a version, driven by that version's generated OpenAPI document: inputs from
// its schemas (test/fuzz/operation-requests.ts, the fuzzer's valid bases), path ids from the smoke world's objects.
// Each answer must be below 500 and a status the document declares for the operation, and a 2xx (the 410 of an
// operation gone at that version) unless hints.ts lists the operation as needing time or an outside event. What the
// schemas cannot guess (objects in a given state, rules beyond the schema) comes from hints.ts. Creates go first,
// then reads, other writes, and deletes last (across the versions), so that the world's objects live as long as possible.
import { join } from 'node:path';
import { readOpenApiDocument } from '../../runtime/openapi-store.js';
import { projectRoot } from '../../runtime/project-root.js';
import { operations } from '../../generated/routes.js';
import { v2Routes, v2Settings } from '../../generated/v2-routes.js';
import { docOperations, OperationRequests, pathParamPrefix, type DocOperation } from '../fuzz/operation-requests.js';
import { Gen, type IdPool } from '../fuzz/schema-values.js';
import type { Checks } from './checks.js';
import { expect } from './checks.js';
import { apiClient, type Credentials, type SmokeWorld } from './seed.js';
import { HINTS, UNREACHABLE, type HintContext } from './hints.js';
import type { Inputs } from '../fuzz/operation-requests.js';

export function openApiDocument(version: string): any {
  return JSON.parse(readOpenApiDocument(join(projectRoot, 'generated'), version));
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

/** The status a valid call must reach: a 2xx, or for an operation gone at this version (it declares no 2xx) its 410. */
const expectedStatus = (declared: string[], status: number) =>
  declared.some((s) => s.startsWith('2')) ? status >= 200 && status < 300 : status === 410 && declared.includes('410');

/** `idPool` reads the ids there are (again after the creates, which add objects of kinds the seeding made none of). */
export async function checkOperations(c: Checks, apiUrl: string, world: SmokeWorld, idPool: () => Promise<IdPool>, versions: string[]): Promise<Map<string, Tally>> {
  const tallies = new Map(versions.map((v) => [v, { calls: 0, operations: 0, reached2xx: 0, byStatus: new Map() } as Tally]));
  let pool = await idPool();
  let phase = 0;
  // The ids this run's calls made, newest first by prefix: a hint names them (the object it just made, or a create's).
  const made = new Map<string, string[]>();
  const remember = (body: any) => {
    const prefix = typeof body?.id === 'string' ? /^[a-z]+_/.exec(body.id)?.[0] : undefined;
    if (prefix) made.set(prefix, [body.id, ...(made.get(prefix) ?? [])]);
  };
  const deleted = new Set<string>();
  const actedOn = new Map<string, Set<string>>();
  const api = apiClient(apiUrl);
  let counter = 0;
  const reported = new Set<string>();
  for (const { version, doc, op, declared, credential: named } of plan(versions)) {
    if (phaseOf(op) !== phase) {
      if (phase === 0) pool = await idPool();
      phase = phaseOf(op);
    }
    const tally = tallies.get(version)!;
    tally.operations += 1;
    // A path names an object no earlier call deleted, nor one this operation already acted on at another version
    // (closing, ending or revoking twice is refused): so each version's call finds an object in its first state.
    const live = (ids: string[]) => ids.filter((id) => !deleted.has(id) && !actedOn.get(op.id)?.has(id));
    const realPathId = (param: string) => {
      const prefix = pathParamPrefix(doc, op.path, param);
      return (prefix && (live(pool.real(prefix))[0] ?? pool.real(prefix)[0])) ?? world.accountId;
    };
    const tokenOf = (credential: keyof Credentials | { token: string } | null) =>
      !credential ? undefined : typeof credential === 'object' ? `Bearer ${credential.token}`
        : credential === 'client' ? world.credentials.client : `Bearer ${world.credentials[credential]}`;
    const ctx: HintContext = {
      version, world,
      id: (prefix) => [...made.get(prefix) ?? [], ...pool.real(prefix)].find((id) => !deleted.has(id)) ?? `${prefix}none`,
      ids: (prefix) => [...made.get(prefix) ?? [], ...pool.real(prefix)].filter((id) => !deleted.has(id)),
      unique: () => `${Date.now().toString(36)}${(counter += 1)}`,
      call: async (method, path, body, credential = 'api_key') => {
        const token = tokenOf(credential)!;
        // At the latest version whatever the pin under test: objects are the same at every version, and a hint's
        // preparation is written once.
        const res = await api(method, path, { token: token.replace(/^Bearer /, ''), client: !token.startsWith('Bearer '), body });
        if (res.status < 200 || res.status >= 300) throw new Error(`preparing ${op.id}: ${method} ${path} ${JSON.stringify(body ?? null).slice(0, 200)} -> ${res.status} ${res.text.slice(0, 300)}`);
        remember(res.body);
        return res.body;
      },
    };
    const hint = HINTS[op.id];
    const unreachable = UNREACHABLE[op.id];
    const seed = [...`${op.id} ${version}`].reduce((h, ch) => (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0, 20261128);
    const builder = new OperationRequests(op, new Gen(pool, seed), realPathId, (param) => pathParamPrefix(doc, op.path, param), () => undefined);
    const credential = typeof hint?.credential === 'function' ? hint.credential(ctx) : hint?.credential ?? named;
    let reached = false;
    let last = '';
    let sent: Inputs | undefined;
    // The required inputs first; when those are refused, once more with every input (some rules need an optional
    // one). A hinted operation is called once, with the hint's values over the required inputs.
    for (const full of hint ? [false] : [false, true]) {
      let status = 0;
      let text = '';
      const label = `${version} ${op.method} ${op.path} (${op.id}, ${hint ? 'hinted' : full ? 'every input' : 'required inputs'})`;
      await c.check(label, async () => {
        const base = builder.base(full);
        const inputs = hint ? withHint(base, await hint.inputs(ctx), op) : base;
        sent = inputs;
        const req = builder.request(full ? 'every input' : 'required inputs', inputs);
        const headers: Record<string, string> = { accept: 'application/json', 'api-version-date': version };
        const authorization = tokenOf(credential);
        if (authorization) headers.authorization = authorization;
        if (req.contentType) headers['content-type'] = req.contentType;
        const res = await fetch(`${apiUrl}${req.target}`, { method: req.method, headers, body: req.body as string | undefined, signal: AbortSignal.timeout(30_000) });
        text = await res.text();
        status = res.status;
        last = `${req.method} ${req.target.slice(0, 200)} ${typeof req.body === 'string' ? req.body.slice(0, 300) : ''} -> ${res.status} ${text.slice(0, 400)}`;
        // SMOKE_LOG=1 prints every exchange that did not reach a 2xx, to see what the world lacks.
        if (process.env.SMOKE_LOG && (res.status < 200 || res.status >= 300)) console.log(`  ${version} ${op.id} ${last}`);
        expect(res.status < 500, `server error: ${last}`);
        expect(declared.includes(String(res.status)), `status ${res.status} is not one the document declares (${declared.join(', ')}): ${last}`);
      });
      tally.calls += 1;
      tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
      if (expectedStatus(declared, status)) {
        reached = true;
        if (status >= 200 && status < 300) {
          tally.reached2xx += 1;
          let answer: any;
          try {
            answer = JSON.parse(text);
          } catch { /* not JSON: nothing to remember */ }
          remember(answer);
          hint?.after?.(ctx, answer);
          if (op.method !== 'GET') {
            // (the suite's own account is acted on at every version: it is the one the credentials hold)
            for (const id of Object.values(sent?.path ?? {}).filter((id) => id !== world.accountId)) {
              actedOn.set(op.id, (actedOn.get(op.id) ?? new Set()).add(id));
              if (op.method === 'DELETE') deleted.add(id);
            }
          }
        }
        break;
      }
      if (op.method === 'DELETE' || status !== 400) break;
    }
    if (unreachable) {
      if (!reported.has(op.id)) console.log(`smoke: ${op.id} is not expected to succeed: ${unreachable}`);
      reported.add(op.id);
    } else {
      await c.check(`${version} ${op.id} reaches its documented success status`, () => {
        expect(reached, `no valid call reached a 2xx (or the 410 of an operation gone at this version): ${last}`);
      });
    }
  }
  return tallies;
}

/** The generated inputs with a hint's values over them (an undefined value removes the generated one). Hints are
 * written for the latest version: at an older one, account_id is sent as company_id where the body has that field,
 * and a body field or query parameter the version's document does not have is left out. */
function withHint(base: Inputs, given: Partial<Inputs>, op: DocOperation): Inputs {
  const properties = op.body?.properties ?? op.body?.anyOf?.find((a: any) => a.properties)?.properties ?? {};
  let body = op.body ? given.body as Record<string, unknown> | undefined : undefined;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const renamed = Object.entries(body).map(([k, v]) => [k === 'account_id' && !properties.account_id && properties.company_id ? 'company_id' : k, v] as const);
    // A decimal string where this version's field is a number (amounts moved from numbers to strings).
    const typed = renamed.map(([k, v]) => [k, typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) && ['number', 'integer'].includes(properties[k]?.type) ? Number(v) : v] as const);
    body = Object.fromEntries(typed.filter(([k]) => k in properties));
  }
  const query = given.query && Object.fromEntries(Object.entries(given.query).filter(([k]) => k in op.query));
  const hint = { ...given, body, query };
  const merge = (a: unknown, b: unknown) => {
    if (b === undefined) return a;
    if (!b || typeof b !== 'object' || Array.isArray(b) || !a || typeof a !== 'object' || Array.isArray(a)) return b;
    const out: Record<string, unknown> = { ...(a as object) };
    for (const [k, v] of Object.entries(b)) {
      if (v === undefined) delete out[k];
      else out[k] = v;
    }
    return out;
  };
  return { path: { ...base.path, ...hint.path }, query: merge(base.query, hint.query) as Inputs['query'], body: merge(base.body, hint.body) };
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
