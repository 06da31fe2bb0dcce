// One generated operation, run: version check, caller kind, scopes, validation, idempotency, transaction, handler.
import type { Context } from 'koa';
import type { Knex } from 'knex';
import { ApiError, forbidden, withCallersParam } from './errors.js';
import { validate, type CompiledValidator } from './validation.js';
import { normaliseQuery } from './query-params.js';
import { requestJsonBody } from './body.js';
import { Access } from './access.js';
import { Effects } from './effects.js';
import { inTransaction } from './request-db.js';
import { flagOn } from './versions.js';
import * as idempotency from './idempotency.js';
import type { AuthKind, Principal } from './principal.js';
import type { HandlerContext } from './handler.js';
import { specData } from '../generated/spec-data.js';
import { serializers } from '../generated/serializers.js';
import { fillHiddenAt } from './plain/hidden-fields.js';
import { resolvePathAliases, type PathAlias } from './path-aliases.js';
import { successorLink, type Successor } from './successor-link.js';

export interface VersionedInput {
  path: CompiledValidator;
  query: CompiledValidator;
  body: CompiledValidator | null;
  /** older request shape -> newest; null at the newest version and wherever nothing changed */
  upgrade: ((input: any) => void) | null;
  /** newest response shape -> this version's; null where identical */
  downgrade: ((output: any) => any) | null;
  /** the success status at this version, when it differs from the operation's (e.g. 200 before creates were 201) */
  status?: number;
  /** inputs this version names differently: head name -> this version's name (company_id for account_id) */
  olderNames?: Record<string, string>;
  /** the response's schema has fields the head hides and this version shows (field_hidden): filled before rendering */
  fill?: { schema: string; list: boolean };
}

/** An error a handler raised about a renamed input names it as the caller sent it. */
const inCallersNames = (e: unknown, names: Record<string, string> | undefined): unknown =>
  (names ? withCallersParam(e, (param) => (Object.hasOwn(names, param) ? names[param] : param), true) : e);

export interface OperationDefinition {
  id: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  /** path parameters declared `secret: true`: request logs write them as [redacted] (runtime/secret-paths.ts) */
  secretParams?: readonly string[];
  auth: AuthKind[];
  scopes: string[];
  account: { from: 'path' | 'query' | 'body'; name: string } | null;
  idempotent: boolean;
  status: number;
  list: { defaultPageSize: number; maxPageSize: number } | null;
  deprecated: (Successor & { sunset?: string }) | null;
  /** path parameters a caller may give by another name (`me`, a username): resolved to ids before the handler */
  pathAliases?: Record<string, PathAlias>;
  /** retired operations answer 410 from `since` on */
  gone: { since: string; successor?: string } | null;
  /** the versions at which the operation exists, each with its input validators */
  versions: Record<string, VersionedInput>;
  // Handlers are typed per operation in handlers/; here they are only called.
  handler: ((input: any, ctx: HandlerContext) => Promise<unknown>) | null;
}

const KIND_REFUSAL: Record<AuthKind, string> = {
  api_key: 'This operation cannot be called with an API key; use a user token',
  user_token: 'This operation cannot be called with a user token; use an API key',
  client: 'This operation cannot be called with a client id; use an API key or user token from your server',
};

const USER_SCOPES = new Set<string>(specData.userScopes);

async function checkScopes(op: OperationDefinition, access: Access, input: Record<string, any>): Promise<void> {
  if (op.account) {
    const accountId = input[op.account.from]?.[op.account.name];
    if (typeof accountId === 'string') return access.require(accountId, op.scopes, op.account.name);
  }
  for (const scope of op.scopes) {
    // Without a named account, user tokens are checked per account by the handler, except for user-level scopes.
    const checkHere = access.principal.kind !== 'user_token' || USER_SCOPES.has(scope);
    if (checkHere && !access.holds(scope)) throw forbidden(`This credential lacks the ${scope} permission`);
  }
}

/** `serialize: false` (the v2 layer, which renders the Current answer itself) leaves a JSON answer an object. */
export function runOperation(op: OperationDefinition, pool: Knex, { serialize = true } = {}) {
  return async (ctx: Context, next: () => Promise<unknown>): Promise<void> => {
    // The request's own connection (see request-db.ts); the pool only when mounted without the app's middleware.
    const db: Knex = ctx.state.db ?? pool;
    const principal: Principal = ctx.state.principal;
    const version: string = ctx.state.version;
    // The metrics label (runtime/metrics.ts): bounded, unlike the path.
    ctx.state.operationId = op.id;
    // The api log's path: this route's (an operation mounted at several paths serves each from its own route).
    ctx.state.operationPath = op.path;
    if (op.gone && version >= op.gone.since) {
      const successor = op.gone.successor ? `; use ${specData.basePath}${op.gone.successor}` : '';
      throw new ApiError(410, 'gone', `${ctx.method} ${ctx.path} is gone as of API version ${op.gone.since}${successor}`);
    }
    const validators = op.versions[version];
    if (!validators || !op.handler) {
      // Another route (an operation that took this path at other versions) may serve it; else the app's 404 says why.
      ctx.state.absentAtVersion = version;
      await next();
      return;
    }
    if (!op.auth.includes(principal.kind)) throw forbidden(KIND_REFUSAL[principal.kind]);
    if (op.deprecated) {
      ctx.set('Deprecation', 'true');
      const link = successorLink(op.deprecated, version, ctx.params ?? {}, ctx.querystring);
      if (link) ctx.set('Link', `<${link}>; rel="successor-version"`);
      if (op.deprecated.sunset) ctx.set('Sunset', new Date(`${op.deprecated.sunset}T00:00:00Z`).toUTCString());
    }

    const path = { ...ctx.params };
    validate('path', validators.path, path);
    if (op.pathAliases) await resolvePathAliases(op.pathAliases, path, db, principal);
    const query = normaliseQuery(ctx.query);
    validate('query', validators.query, query);
    let body: unknown;
    if (validators.body) {
      // No body is an empty one; a JSON null is a body, and not an object.
      const sent = await requestJsonBody(ctx);
      body = sent === undefined ? {} : sent;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new ApiError(400, 'invalid_request', 'The body must be a JSON object');
      }
      validate('body', validators.body, body);
    }
    const input = { path, query, body };
    validators.upgrade?.(input);
    const access = new Access(db, principal);
    const names = validators.olderNames;
    try {
      await checkScopes(op, access, input);
    } catch (e) {
      throw inCallersNames(e, names);
    }

    // An older version's request may carry the key in its body; its upgrade puts it here (the header wins).
    const idempotencyKey = op.idempotent ? ctx.get('Idempotency-Key') || (input as { idempotencyKey?: string }).idempotencyKey || '' : '';
    if (idempotencyKey) idempotency.checkKey(idempotencyKey);

    // A success body is written with this version's compiled serialiser (only the schema's fields).
    const serializer = serializers[op.id]?.[version];
    const render = validators.downgrade;
    const status = validators.status ?? op.status;
    const fill = validators.fill;
    const defaultPageSize = op.list?.defaultPageSize ?? 0;
    const run = async (conn: Knex) => {
      const out: any = await op.handler!(input, new RequestContext(conn, principal, access, version, defaultPageSize, ctx));
      if (fill) await fillHiddenAt(conn, fill.schema, version, fill.list ? out.data : [out]);
      return render ? render(out) : out;
    };
    if (op.method === 'GET') {
      let out: unknown;
      try {
        out = await run(db);
      } catch (e) {
        throw inCallersNames(e, names);
      }
      ctx.status = status;
      answerJson(ctx, out, serializer, serialize);
      return;
    }
    if (!idempotencyKey) {
      const out = await inTransaction(db, run).catch((e) => { throw inCallersNames(e, names); });
      ctx.status = status;
      answerJson(ctx, out, serializer, serialize);
      return;
    }

    const credentialId = principal.credentialId;
    const hash = idempotency.requestHash(op.id, path, body);
    const outcome = await inTransaction(db, async (trx, opened): Promise<idempotency.StoredResponse & { replayed: boolean }> => {
      const replay = idempotency.claim(opened, hash);
      if (replay) return { ...replay, replayed: true };
      let response: idempotency.StoredResponse;
      try {
        response = { status, body: await run(trx) };
      } catch (raised) {
        const e = inCallersNames(raised, names);
        // A refusal is kept and replayed like a success; a server error rolls everything back, freeing the key.
        if (!(e instanceof ApiError) || e.status >= 500) throw e;
        await idempotency.undoRequestWork(trx);
        response = { status: e.status, body: errorBody(e, ctx.state.requestId) };
        for (const [k, v] of Object.entries(e.headers)) ctx.set(k, v);
      }
      await idempotency.complete(trx, credentialId, idempotencyKey, op.id, hash, response);
      return { ...response, replayed: false };
    }, idempotency.openingStatements(credentialId, idempotencyKey));
    if (outcome.replayed) {
      ctx.set('Idempotent-Replayed', 'true');
      ctx.state.idempotentReplay = true;
      // A replayed error envelope names this request, like every error; the original's id goes in a header.
      const error = (outcome.body as { error?: { request_id?: string } } | null)?.error;
      if (error?.request_id) {
        ctx.set('Original-Request', error.request_id);
        error.request_id = ctx.state.requestId;
      }
    }
    ctx.status = outcome.status;
    answerJson(ctx, outcome.body, serializer, serialize);
  };
}

const VERSION_FLAGS = specData.versionFlags as Record<string, string>;

/** What the handler is given: one object of one shape per request (a spread of closures cost more than the rest of
 * the context; measured by `npm run bench`). Its methods are called on it (`ctx.emit(...)`), never taken off it. */
class RequestContext extends Effects implements HandlerContext {
  constructor(db: Knex, readonly principal: Principal, readonly access: Access, readonly version: string,
    readonly defaultPageSize: number, private readonly koa: Context) {
    super(db);
  }

  get requestId(): string {
    return this.koa.state.requestId;
  }

  get ip(): string {
    return this.koa.ip;
  }

  flag(name: string): boolean {
    return flagOn(this.version, VERSION_FLAGS[name]);
  }
}

/** An answer, JSON, written as text (a success with the version's serialiser, when given: only the schema's fields),
 * so that Koa's body setter takes its string path: given an object, it asks whether it is a `Response`, which on
 * Node 20 loads Node's fetch implementation (~40 ms) at a process's first request. The v2 layer renders the Current
 * answer itself: it gets the object (`asText` false), and writes its own rendering here. */
export function answerJson(ctx: Context, body: unknown, serializer?: (body: unknown) => string, asText = true): void {
  if (!asText || body === null || typeof body !== 'object' || Buffer.isBuffer(body)) {
    ctx.body = body;
    return;
  }
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  ctx.body = serializer && ctx.status < 300 ? serializer(body) : JSON.stringify(body);
}

export function errorBody(e: ApiError, requestId: string) {
  return { error: { type: e.type, message: e.message, ...(e.param ? { param: e.param } : {}), request_id: requestId } };
}
