// Runs one Current operation for a v2 request: the operation's own pipeline (runOperation: caller kind, scopes,
// validation, idempotency, transaction, handler) on a child of the request's context whose method, path, params,
// query and body are the mapped Current ones, at the newest version. Its status, body and headers stay on the
// child; the v2 layer decides what reaches the response.
import type { Context } from 'koa';
import type { Knex } from 'knex';
import { ApiError } from '../errors.js';
import { runOperation, type OperationDefinition } from '../operation.js';
import { HEAD_VERSION } from '../versions.js';
import { specData } from '../../generated/spec-data.js';
import type { CurrentInput } from './route.js';

export interface CurrentResult {
  status: number;
  body: any;
  headers: Record<string, string>;
}

type Runner = ReturnType<typeof runOperation>;

export class CurrentOperations {
  private readonly runners = new Map<string, { op: OperationDefinition; run: Runner }>();

  constructor(operations: OperationDefinition[], pool: Knex) {
    // An operation that moved is mounted once per path it has had; the v2 layer calls it at the newest version, so
    // it takes the entry that serves that version.
    for (const op of operations) {
      if (op.versions[HEAD_VERSION] || !this.runners.has(op.id)) this.runners.set(op.id, { op, run: runOperation(op, pool, { serialize: false }) });
    }
  }

  get(id: string): OperationDefinition {
    const found = this.runners.get(id);
    // The generator checks every mapped operation exists; an app started with fewer operations cannot serve it.
    if (!found) throw new ApiError(501, 'api_error', `The Current operation ${id} is not served by this server`);
    return found.op;
  }

  async call(ctx: Context, db: Knex, id: string, input: Partial<CurrentInput>): Promise<CurrentResult> {
    const { op, run } = this.runners.get(id) ?? { op: this.get(id), run: null as never };
    const path = input.path ?? {};
    const child = Object.create(ctx) as Context;
    const headers: Record<string, string> = {};
    const own = (name: string, value: unknown) => Object.defineProperty(child, name, { value, writable: true, configurable: true });
    own('method', op.method);
    own('path', specData.basePath + op.path.replace(/:([a-z_]+)/g, (_, name: string) => encodeURIComponent(path[name] ?? '')));
    own('params', { ...path });
    own('query', { ...(input.query ?? {}) });
    own('state', { ...ctx.state, db, version: HEAD_VERSION, body: Promise.resolve(input.body) });
    own('status', 404);
    own('body', undefined);
    own('set', (name: string, value: string) => { headers[name.toLowerCase()] = value; });
    await run(child, async () => {
      throw new ApiError(404, 'not_found', `${op.method} ${op.path} does not exist at API version ${HEAD_VERSION}`);
    });
    return { status: child.status, body: child.body, headers };
  }
}
