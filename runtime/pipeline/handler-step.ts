// Handler: the operation's handler, given the head-shape input and what it may use of the request (HandlerContext).
import type { Knex } from 'knex';
import type { Access } from '../access.js';
import { Effects } from '../effects.js';
import type { HandlerContext } from '../handler.js';
import type { Principal } from '../principal.js';
import type { ApiContext } from '../request-state.js';
import { flagOn } from '../versions.js';
import { api } from '../api-definition.js';
import type { OperationCall, OperationInput } from './operation-call.js';

/** Runs the handler on `conn`: the request's connection for reads, its transaction for writes. */
export function callHandler(call: OperationCall, access: Access, input: OperationInput, conn: Knex): Promise<unknown> {
  const { op, principal, version, request } = call;
  return op.handler!(input, new HandlerCall(conn, principal, access, version, op.list?.defaultPageSize ?? 0, request));
}

/** What the handler is given: one object of one shape per request (a spread of closures cost more than the rest of
 * the context; measured by `npm run bench`). Its methods are called on it (`ctx.emit(...)`), never taken off it. */
class HandlerCall extends Effects implements HandlerContext {
  constructor(db: Knex, readonly principal: Principal, readonly access: Access, readonly version: string,
    readonly defaultPageSize: number, private readonly request: ApiContext) {
    super(db);
  }

  get requestId(): string {
    return this.request.state.requestId;
  }

  get ip(): string {
    return this.request.ip;
  }

  flag(name: string): boolean {
    return flagOn(this.version, api().spec.versionFlags[name]);
  }
}
