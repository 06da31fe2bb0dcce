// Runs one Current operation for a v2 request, at the newest version: the v2 layer's own composition of the
// operation's steps (runtime/pipeline/). The input is the v2 request mapped to Current names (v2-input.ts), not the
// Koa request's; the caller kind, validation, scopes, idempotency, transaction and handler are the Current API's;
// the result stays an object, with the headers the steps set, and the v2 layer decides what reaches the response.
import type { Knex } from 'knex';
import { ApiError } from '../errors.js';
import { Access } from '../access.js';
import type { OperationDefinition } from '../operation.js';
import { callerOf, type RequestContext } from '../request-state.js';
import { headVersion } from '../versions.js';
import { api } from '../api-definition.js';
import { operationAtVersion } from '../pipeline/version-step.js';
import { checkCallerKind } from '../pipeline/caller-step.js';
import { validatedInput } from '../pipeline/validation-step.js';
import { upgradedInput } from '../pipeline/upgrade-step.js';
import { checkScopes } from '../pipeline/scopes-step.js';
import { idempotencyKeyOf, markReplay } from '../pipeline/idempotency-step.js';
import { runInTransaction } from '../pipeline/transaction-step.js';
import type { HeaderSink, OperationCall } from '../pipeline/operation-call.js';
import type { CurrentInput } from './route.js';

export interface CurrentResult {
  status: number;
  body: any;
  /** by lower-case name */
  headers: Record<string, string>;
}

export class CurrentOperations {
  private readonly operations = new Map<string, OperationDefinition>();

  constructor(operations: OperationDefinition[]) {
    // An operation that moved is mounted once per path it has had; the v2 layer calls it at the newest version, so
    // it takes the entry that serves that version.
    const head = headVersion();
    for (const op of operations) {
      if (op.versions[head] || !this.operations.has(op.id)) this.operations.set(op.id, op);
    }
  }

  get(id: string): OperationDefinition {
    const found = this.operations.get(id);
    // The generator checks every mapped operation exists; an app started with fewer operations cannot serve it.
    if (!found) throw new ApiError(501, 'api_error', `The Current operation ${id} is not served by this server`);
    return found;
  }

  /** Runs the operation on `db` (the request's connection, or an adapter's transaction). */
  async call(ctx: RequestContext, db: Knex, id: string, given: Partial<CurrentInput>): Promise<CurrentResult> {
    const op = this.get(id);
    const path = given.path ?? {};
    const headers: Record<string, string> = {};
    const sink: HeaderSink = { set: (name, value) => { headers[name.toLowerCase()] = value; } };
    const version = headVersion();
    const at = operationAtVersion(op, version, op.method, currentPath(op, path));
    if (!at) throw new ApiError(404, 'not_found', `${op.method} ${op.path} does not exist at API version ${version}`);
    const principal = callerOf(ctx.state);
    checkCallerKind(op, principal);
    const call: OperationCall = { op, at, version, db, principal, request: ctx };
    const sent = await validatedInput(call, { params: path, query: given.query ?? {}, body: () => Promise.resolve(given.body) });
    const input = upgradedInput(call, sent);
    const access = new Access(db, principal);
    await checkScopes(call, access, input);
    const idempotencyKey = idempotencyKeyOf(call, ctx.get('Idempotency-Key'), input);
    const outcome = await runInTransaction(call, access, input, sent, idempotencyKey, sink);
    if (outcome.replayed) markReplay(outcome, sink, ctx.state.requestId);
    return { status: outcome.status, body: outcome.body, headers };
  }
}

/** The Current request's path, as a 410 names it. */
const currentPath = (op: OperationDefinition, path: Record<string, string>) =>
  api().spec.basePath + op.path.replace(/:([a-z_]+)/g, (_, name: string) => encodeURIComponent(path[name] ?? ''));
