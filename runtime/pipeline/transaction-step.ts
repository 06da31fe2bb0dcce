// Transaction: a read runs the handler on the request's connection; a write runs it in one transaction (once per
// idempotency key, when the call has one). Either way the result is rendered at the caller's version before the
// transaction ends.
import type { Knex } from 'knex';
import type { Access } from '../access.js';
import { inTransaction } from '../request-db.js';
import { inCallersNames } from './callers-names.js';
import { callHandler } from './handler-step.js';
import { runIdempotently } from './idempotency-step.js';
import type { CallOutcome, HeaderSink, OperationCall, OperationInput } from './operation-call.js';
import { renderAtVersion } from './version-rendering-step.js';
import { selectHiddenAt } from '../plain/hidden-fields.js';

/** `sent` is the input as validated, before its upgrade: what an idempotency key's request is recognised by. */
export async function runInTransaction(call: OperationCall, access: Access, input: OperationInput, sent: OperationInput,
  idempotencyKey: string, headers: HeaderSink): Promise<CallOutcome> {
  const { op, at, db } = call;
  const work = async (conn: Knex) => {
    if (at.fill) selectHiddenAt(conn, at.fill.schema, call.version);
    return renderAtVersion(call, conn, await callHandler(call, access, input, conn));
  };
  const status = at.status ?? op.status;
  if (op.method === 'GET') {
    try {
      return { status, body: await work(db), replayed: false };
    } catch (e) {
      throw inCallersNames(e, at.olderNames);
    }
  }
  if (!idempotencyKey) {
    const body = await inTransaction(db, work).catch((e) => { throw inCallersNames(e, at.olderNames); });
    return { status, body, replayed: false };
  }
  return runIdempotently(call, sent, idempotencyKey, work, headers);
}
