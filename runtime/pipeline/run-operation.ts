// The Current API's route for one operation: its steps, in order, at the caller's version.
import type { Knex } from 'knex';
import { Access } from '../access.js';
import { api } from '../api-definition.js';
import { requestJsonBody } from '../body.js';
import type { OperationDefinition } from '../operation.js';
import type { ApiContext } from '../request-state.js';
import { operationAtVersion } from './version-step.js';
import { checkCallerKind } from './caller-step.js';
import { setDeprecationHeaders } from './deprecation-step.js';
import { validatedInput } from './validation-step.js';
import { upgradedInput } from './upgrade-step.js';
import { checkScopes } from './scopes-step.js';
import { idempotencyKeyOf, markReplay } from './idempotency-step.js';
import { runInTransaction } from './transaction-step.js';
import { answerJson } from './json-answer.js';
import type { OperationCall } from './operation-call.js';

/** The operation as a route of the Current API, at the caller's version. */
export function runOperation(op: OperationDefinition, pool: Knex) {
  return async (ctx: ApiContext, next: () => Promise<unknown>): Promise<void> => {
    const { state } = ctx;
    // The metrics label (runtime/metrics.ts): bounded, unlike the path.
    state.operationId = op.id;
    // The api log's path: this route's (an operation mounted at several paths serves each from its own route).
    state.operationPath = op.path;
    const { principal, version } = state;
    if (!principal || version === undefined) throw new Error(`${op.id} ran before its caller and version were known`);
    const at = operationAtVersion(op, version, ctx.method, ctx.path);
    if (!at) {
      // Another route (an operation that took this path at other versions) may serve it; else the app's 404 says why.
      state.absentAtVersion = version;
      await next();
      return;
    }
    checkCallerKind(op, principal);
    const params = ctx.params ?? {};
    setDeprecationHeaders(ctx, op, version, params, ctx.querystring);
    // The request's own connection (see request-db.ts); the pool only when mounted without the app's middleware.
    // A success body is written with this version's compiled serialiser (only the schema's fields).
    const serialize = api().serializers[op.id]?.[version];
    const call: OperationCall = { op, at, version, db: state.db ?? pool, principal, request: ctx, serialize };
    const validated = validatedInput(call, { params, query: ctx.query, body: () => requestJsonBody(ctx) });
    const sent = validated instanceof Promise ? await validated : validated;
    const input = upgradedInput(call, sent);
    const access = new Access(call.db, principal);
    const checked = checkScopes(call, access, input);
    if (checked instanceof Promise) await checked;
    const idempotencyKey = idempotencyKeyOf(call, ctx.get('Idempotency-Key'), input);
    const outcome = await runInTransaction(call, access, input, sent, idempotencyKey, ctx);
    if (outcome.replayed) {
      markReplay(outcome, ctx, state.requestId);
      state.idempotentReplay = true;
    }
    ctx.status = outcome.status;
    answerJson(ctx, outcome.body, serialize, outcome.text);
  };
}
