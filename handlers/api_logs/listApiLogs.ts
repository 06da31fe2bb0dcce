// Written by hand, not declared plain: the rows are unnested from batches of requests, read a few batches a statement
// until the page is settled.
// GET /api_logs: the logs are stored a batch at a time (migrations/490_api_log_batches.ts), so a page is read by
// walking the batches of the caller's accounts on (account_id, last_at) in the page's order, unnesting them, and
// keeping the rows that pass the filters, a few batches per statement, more each round, until the page is full of
// rows that no batch left unread can precede: a batch's requests all lie within a minute before its last_at. A page
// costs what the batches holding it cost, whatever the account's history; a filter that matches little walks more
// batches (the row-per-request table walked its rows the same way).
import type { Knex } from 'knex';
import type { Handler } from '../../generated/handler.js';
import type { ApiLogRow } from '../../generated/rows.js';
import { resources } from '../../generated/resources.js';
import { whereOwned } from '../../runtime/ownership.js';
import { pageWindow } from '../../runtime/pagination.js';
import { selectBuilt } from '../../runtime/request-db.js';
import { API_LOG_BATCH_MS } from '../../runtime/api-log.js';
import { BATCH_SPAN, LOG_ROWS, UNNEST_LOGS } from './log-rows.js';


/** LOG_ROWS reads what the api_logs view does (migrations/490_api_log_batches.ts). */
type LogRow = ApiLogRow;
type Query = Parameters<Handler<'listApiLogs'>>[0]['query'];

/** The rows' own conditions: the filters and the page's keyset bounds (on the unnested rows, `l`). */
function rowConditions(query: Query, keyset: { sql: string; bindings: (string | number)[] }[]) {
  const conditions: { sql: string; bindings: (string | number)[] }[] = [...keyset];
  const equal = (column: string, value: string | number | undefined) => {
    if (value !== undefined) conditions.push({ sql: `l.${column} = ?`, bindings: [value] });
  };
  equal('api_key_id', query.api_key_id);
  equal('operation', query.operation);
  equal('status', query.status);
  equal('outcome', query.outcome);
  if (query.created_after !== undefined) conditions.push({ sql: 'l.created_at > ?', bindings: [query.created_after] });
  if (query.created_before !== undefined) conditions.push({ sql: 'l.created_at < ?', bindings: [query.created_before] });
  return conditions;
}

/** Narrows the batches to those that can hold a row between `lower` and `upper` (either may be absent). */
function boundBatches(batches: Knex.QueryBuilder, lower: string[], upper: string[]): void {
  for (const at of lower) batches.where('b.last_at', '>=', at);
  for (const at of upper) batches.where('b.first_at', '<=', at).whereRaw(`b.last_at < ?::timestamptz + ${BATCH_SPAN}`, [at]);
}

export const listApiLogs: Handler<'listApiLogs'> = async ({ query }, ctx) => {
  const direction = query.direction ?? 'desc';
  const window = pageWindow<LogRow>(query, { defaultSize: ctx.defaultPageSize, direction });
  const newestFirst = window.order === 'desc';
  const batches = ctx.db('api_log_batches as b');
  await whereOwned(ctx.access, batches, 'b.account_id', 'api_key:read', query.account_id);
  // The window's cursors and the created_* filters bound the batches worth reading.
  const lower: string[] = [];
  const upper: string[] = [];
  if (query.created_after !== undefined) lower.push(query.created_after);
  if (query.created_before !== undefined) upper.push(query.created_before);
  if (window.after) (direction === 'desc' ? upper : lower).push(String(window.after[0]));
  if (window.before) (direction === 'desc' ? lower : upper).push(String(window.before[0]));
  boundBatches(batches, lower, upper);

  const conditions = rowConditions(query, window.where);
  const where = conditions.length ? `where ${conditions.map((c) => c.sql).join(' and ')}` : '';
  const order = window.order;
  const reverse = newestFirst ? 'asc' : 'desc';
  const fetched: LogRow[] = [];
  let edge: { at: string; id: string } | null = null;
  // Each statement reads the next batches in the page's order until they hold `wanted` requests, and one more (at
  // most wanted + 1 batches: each holds a request), wanting twice as many each time: a page without filters is one
  // statement, however small the batches.
  for (let wanted = window.limit; ; wanted *= 2) {
    const inOrder = `over (order by b.last_at ${order}, b.id ${order})`;
    const next = batches.clone().select('b.*', ctx.db.raw(`sum(b.entries) ${inOrder} as "$running", lag(b.entries, 1, 0) ${inOrder} as "$previous"`))
      .orderBy([{ column: 'b.last_at', order }, { column: 'b.id', order }]).limit(wanted + 1);
    if (edge) next.whereRaw(`(b.last_at, b.id) ${newestFirst ? '<' : '>'} (?, ?)`, [edge.at, edge.id]);
    // The batches that reach `wanted` requests, and one more: its last request bounds what the others settle.
    const picked = ctx.db.select('*').from(next.as('w')).whereRaw('"$running" - entries - "$previous" < ?', [wanted]);
    const rows = await selectBuilt<LogRow & { $batches: number; $requests: number | null; $edge_at: string | null; $edge_id: string | null }>(
      ctx.db.queryBuilder().with('picked', picked)
        .select(ctx.db.raw(`(select count(*)::int from picked) as "$batches", (select max("$running") from picked) as "$requests",
          (select last_at from picked order by last_at ${reverse}, id ${reverse} limit 1) as "$edge_at",
          (select id from picked order by last_at ${reverse}, id ${reverse} limit 1) as "$edge_id", page.*`))
        .from(ctx.db.raw('(select 1) one'))
        .joinRaw(`left join lateral (select * from (select ${LOG_ROWS} from picked b ${UNNEST_LOGS}) l ${where}
          order by l.created_at ${order}, l.id ${order} limit ?) page on true`,
        [...conditions.flatMap((c) => c.bindings), window.limit]));
    const [{ $batches: read, $requests: requests, $edge_at: at, $edge_id: id }] = rows;
    fetched.push(...rows.filter((r) => r.id !== null));
    // Fewer batches than allowed that hold no more requests than wanted: none is left.
    if (at === null || id === null || (read <= wanted && Number(requests) <= wanted)) break;
    edge = { at, id };
    // Rows no unread batch can precede in the page's order: newer than the edge batch's last request (newest
    // first), or older than a minute before it (oldest first).
    const edgeMs = Date.parse(at);
    const settled = fetched.filter((r) => (newestFirst ? Date.parse(r.created_at) > edgeMs : Date.parse(r.created_at) <= edgeMs - API_LOG_BATCH_MS));
    if (settled.length >= window.limit) break;
  }
  // created_at is ISO 8601 in UTC to the millisecond (runtime/db.ts isoTimestamp): its text sorts as its time.
  const sign = newestFirst ? -1 : 1;
  const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  fetched.sort((a, b) => sign * (compare(a.created_at, b.created_at) || compare(a.id, b.id)));
  const { rows, page_info } = window.finish(fetched.slice(0, window.limit));
  return { data: rows.map(resources.ApiLog.view), page_info };
};
