// A plain summary: the totals of a totals table by its key columns, checked against the resource it answers.
import type { ApiSpec, OperationSpec, PlainSpec } from '../spec-types.js';
import { tsLiteral as literal } from './ts-literal.js';
import type { PlainModel, Problem } from './plain-shared.js';

/**
 * A summary answers `{ object, totals: [Total] }`, where Total's enum fields are the totals table's key columns (listed
 * in the order of their values, null first) and `count: integer` and `amount: money` its sums, by currency too.
 */
export function summaryModel(spec: ApiSpec, op: OperationSpec, plain: PlainSpec, named: string, problem: Problem, count: number,
  problems: string[]): PlainModel | null {
  const fields = spec.resources[named]?.fields ?? {};
  const object = fields.object?.type === 'enum' && fields.object.values?.length === 1 ? fields.object.values[0] : null;
  const total = fields.totals?.type === 'array' && fields.totals.items?.type === 'ref' ? fields.totals.items.ref : null;
  if (!object || !total || Object.keys(fields).length !== 2) {
    problem(['response', 'type'], `names ${named}, which a plain summary answers as { object: <one enum value>, totals: [<a total>] } and nothing else`);
    return null;
  }
  const keys: { field: string; order: (string | null)[] }[] = [];
  for (const [field, f] of Object.entries(spec.resources[total]?.fields ?? {})) {
    if (field === 'count' && f.type === 'integer') continue;
    if (field === 'amount' && f.type === 'money') continue;
    if (f.type !== 'enum' || !f.values) {
      problem(['response', 'type'], `names ${named}, whose total ${total}.${field} is neither a key (an enum) nor count (integer) nor amount (money)`);
      continue;
    }
    keys.push({ field, order: [...(f.nullable ? [null] : []), ...f.values] });
  }
  const totalFields = spec.resources[total]?.fields ?? {};
  if (totalFields.count?.type !== 'integer' || totalFields.amount?.type !== 'money') {
    problem(['response', 'type'], `names ${named}, whose total ${total} needs count (integer) and amount (money)`);
  }
  const accountParam = op.account?.startsWith('query.') ? op.account.slice('query.'.length) : null;
  if (!accountParam) problem(['account'], 'must name a query parameter (query.account_id) for a plain summary');
  for (const param of Object.keys(op.query)) {
    if (param !== accountParam) problem(['query', param], 'is not taken by a plain summary: it totals by account only', true);
  }
  if (op.scopes.length !== 1) problem(['scopes'], 'must name one scope: a plain summary totals the accounts where it is held');
  if (!plain.totals) problem(['plain'], 'is a plain summary; it needs totals: the totals table it reads', true);
  if (problems.length > count) return null;
  const options: [string, string][] = [
    ['scope', literal(op.scopes[0])], ['accountParam', literal(accountParam)], ['table', literal(plain.totals)],
    ['object', literal(object)], ['keys', literal(keys)],
  ];
  return { op, resource: null, factory: 'plainSummary', options, hook: false, sharedHook: null, fill: null, find: null };
}
