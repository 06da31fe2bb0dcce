// Written by hand, not declared plain: a transfer has two sides: each readable side's rows are walked from its own
// index and the walks merged (pageWindow).
import type { Handler } from '../../generated/handler.js';
import { pageWindow } from '../../runtime/pagination.js';
import { query as fetchRows } from '../../runtime/request-db.js';
import { isWallet, readableSides, requireSomeSide } from './transfer-access.js';
import { TRANSFER_COLUMNS, transferFrom, transferView, type TransferRow } from './transfer-view.js';

const READ = 'payout:account:read';

interface Condition { sql: string; bindings: (string | number)[] }

/**
 * GET /transfers: the transfers of every side the caller may read (its accounts holding payout:account:read, a user
 * token's own wallet), or of the side origin_id or destination_id names. Each side's rows are read in the list's
 * order from its own (side, sort key, id) index, a page's worth at most, and merged: a page costs the same however
 * many transfers the sides have made.
 */
export const listTransfers: Handler<'listTransfers'> = async ({ query }, ctx) => {
  const conditions: Condition[] = [];
  let origins: string[];
  let destinations: string[];
  if (query.origin_id !== undefined || query.destination_id !== undefined) {
    const named = [
      ...(query.origin_id !== undefined ? [{ id: query.origin_id, param: 'origin_id' }] : []),
      ...(query.destination_id !== undefined ? [{ id: query.destination_id, param: 'destination_id' }] : []),
    ];
    const allowed = await requireSomeSide(ctx.access, named, READ,
      { noun: isWallet(named[0].id) ? 'wallet' : 'account', id: named[0].id, param: named[0].param });
    // The side the caller may read drives the statement; the other named side only narrows it.
    const byOrigin = query.origin_id !== undefined && allowed.includes(query.origin_id);
    origins = byOrigin ? [query.origin_id!] : [];
    destinations = byOrigin ? [] : [query.destination_id!];
    if (byOrigin && query.destination_id !== undefined) conditions.push({ sql: 't.destination_id = ?', bindings: [query.destination_id] });
    if (!byOrigin && query.origin_id !== undefined) conditions.push({ sql: 't.origin_id = ?', bindings: [query.origin_id] });
  } else {
    origins = await readableSides(ctx.access, READ);
    destinations = origins;
  }
  if (query.created_after) conditions.push({ sql: 't.created_at > ?', bindings: [query.created_after] });
  if (query.created_before) conditions.push({ sql: 't.created_at < ?', bindings: [query.created_before] });

  const sort = `t.${query.order}`;
  const window = pageWindow<TransferRow>(query, {
    defaultSize: ctx.defaultPageSize, direction: query.direction, sortColumn: sort, idColumn: 't.id',
    sortKind: query.order === 'amount' ? 'integer' : 'timestamp',
  });
  const bounds = [...conditions, ...window.where];
  const order = `order by ${sort} ${window.order}, t.id ${window.order} limit ${window.limit}`;
  // Positional parameters ($n), numbered as the text is written: arrays bind whole (text[]).
  const values: unknown[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  const bound = (c: Condition) => {
    let i = 0;
    return c.sql.replace(/\?/g, () => param(c.bindings[i++]));
  };
  // One side's first rows in list order; a row both of whose sides are read comes from its origin's branch only.
  const branch = (column: 'origin_id' | 'destination_id', sides: string[]) => {
    const exclude = column === 'destination_id' && origins.length ? ` and t.origin_id <> all(${param(origins)}::text[])` : '';
    return `select b.* from unnest(${param(sides)}::text[]) as side(id) cross join lateral (select t.* from transfers t
      where t.${column} = side.id${exclude}${bounds.map((c) => ` and ${bound(c)}`).join('')} ${order}) b`;
  };
  const branches = [
    ...(origins.length ? [branch('origin_id', origins)] : []),
    ...(destinations.length ? [branch('destination_id', destinations)] : []),
  ];
  const fetched = branches.length
    ? await fetchRows<TransferRow>(ctx.db, `select ${TRANSFER_COLUMNS} from ${transferFrom(`(${branches.join(' union all ')})`)} ${order}`, values)
    : [];
  const page = window.finish(fetched);
  return { data: page.rows.map(transferView), page_info: page.page_info };
};
