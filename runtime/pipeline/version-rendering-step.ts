// Rendering at the caller's version: the handler's head-shape result, with the fields the head hides and this
// version shows read first, downgraded to this version's shape. Inside the transaction: what an idempotent request
// stores and replays is this version's answer.
import type { Knex } from 'knex';
import { fillHiddenAt } from '../plain/hidden-fields.js';
import type { OperationCall } from './operation-call.js';

export async function renderAtVersion({ at, version }: OperationCall, conn: Knex, out: any): Promise<unknown> {
  if (at.fill) await fillHiddenAt(conn, at.fill.schema, version, at.fill.list ? out.data : [out]);
  return at.downgrade ? at.downgrade(out) : out;
}
