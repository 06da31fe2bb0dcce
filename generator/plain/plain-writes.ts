// What a plain create and a plain update write: body fields to columns, and a create's declared unique errors.
import type { OperationSpec, PlainSpec, UniqueErrorSpec } from '../spec-types.js';
import type { TableColumns } from '../emit-rows.js';
import { targetOf, type StoredModel } from './stored-resources.js';
import { tsLines, tsLiteral as literal } from './ts-literal.js';
import type { Problem } from './plain-shared.js';

/**
 * A create writes its body: the account named by `account: body.<field>` (checked by the runtime before the handler),
 * and every other field in its column (a metadata field as JSON). A field no column takes as sent (an object or a
 * list, a field read otherwise, a column migrations/tables.json lacks) is left to the hook, or is a spec error.
 */
export function createOptions(op: OperationSpec, plain: PlainSpec, resource: StoredModel, tables: TableColumns | null,
  problem: Problem): [string, string][] {
  const body = op.body ?? {};
  const accountParam = op.account?.startsWith('body.') ? op.account.slice('body.'.length) : null;
  if (!accountParam || !body[accountParam]?.required) {
    problem(op.account ? ['account'] : ['plain'], 'must name a required body field (account: body.account_id) for a plain create: the account it creates in', !op.account);
  }
  const prefix = resource.resource.prefix;
  if (!prefix) problem(['response', 'type'], `names ${resource.name}, which has no prefix: a plain create makes its id from it`);
  const columns = tables?.tables[resource.table];
  const out: Record<string, { column: string; metadata: boolean }> = {};
  for (const [field, input] of Object.entries(body)) {
    if (field === accountParam) continue;
    const target = targetOf(resource, field);
    const column = typeof target === 'string' ? null : target.column;
    const json = input.type === 'object' || input.type === 'array';
    if (column && !json && (!columns || column in columns)) {
      out[field] = { column, metadata: input.type === 'metadata' };
    } else if (!plain.hook) {
      const why = typeof target === 'string' ? target : !column ? 'not a column' : json ? `an ${input.type}, which a hook writes`
        : `not a column of ${resource.table} (migrations/tables.json)`;
      problem(['body', field], `has no column a plain create writes it to (${why}); its hook (plain.hook) takes it`, true);
    }
  }
  return [['prefix', literal(prefix ?? '')], ['table', literal(resource.table)], ['accountParam', literal(accountParam ?? '')],
    ['fields', tsLines(out)], ...(plain.unique ? [['unique', uniqueErrors(op, plain.unique, problem)] as [string, string]] : [])];
}

/**
 * `unique`: the error a create's insert answers when it breaks the named constraint (a duplicate another request may
 * have written a moment before). migrations/tables.json records no constraints, so the name is taken as written; the
 * param and the message's `{field}`s are body fields, and the status is one the operation declares.
 */
export function uniqueErrors(op: OperationSpec, unique: Record<string, UniqueErrorSpec>, problem: Problem): string {
  const body = op.body ?? {};
  const out: Record<string, Required<UniqueErrorSpec>> = {};
  for (const [constraint, error] of Object.entries(unique)) {
    const path = ['plain', 'unique', constraint];
    const status = error.status ?? 409;
    if (!op.errors.includes(status)) problem([...path, ...(error.status ? ['status'] : [])], `answers ${status}, which the operation's errors do not list`);
    if (!(error.param in body)) problem([...path, 'param'], `names ${error.param}, which is not a body field of the operation`);
    for (const [, field] of error.message.matchAll(/\{([^}]*)\}/g)) {
      if (!(field in body)) problem([...path, 'message'], `names {${field}}, which is not a body field of the operation`);
    }
    out[constraint] = { status, type: error.type ?? 'conflict', message: error.message, param: error.param };
  }
  return tsLines(out);
}

export function updateFields(op: OperationSpec, plain: PlainSpec, resource: StoredModel, problem: Problem): string {
  const body = op.body ?? {};
  const fields = plain.fields ?? [];
  if (fields.length === 0) problem(['plain'], 'is a plain update; it needs fields: the body fields it writes', true);
  const out: Record<string, { column: string; merge: boolean }> = {};
  fields.forEach((field, i) => {
    if (!(field in body)) return problem(['plain', 'fields', i], `names ${field}, which the body does not take`);
    const target = targetOf(resource, field);
    if (typeof target === 'string' || !target.column) {
      return problem(['plain', 'fields', i], `names ${field}, which is not a column of ${resource.table}${typeof target === 'string' ? ` (${target})` : ''}`);
    }
    out[field] = { column: target.column, merge: body[field].type === 'metadata' };
  });
  if (!plain.hook) {
    for (const field of Object.keys(body)) {
      if (!fields.includes(field)) problem(['body', field], `is neither written (plain.fields) nor taken by a hook (plain.hook)`, true);
    }
  }
  return tsLines(out);
}
