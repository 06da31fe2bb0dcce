// Api logs of authenticated requests, kept off the request's path: each request appends one small record to this
// process's buffer (no statement, no await), and a timer writes the buffer with one statement (the batch as one JSON parameter) every
// API_LOG_FLUSH_MS (default 250) or as soon as API_LOG_BATCH_ROWS (default 500) are waiting. close() writes what
// is left (runtime/server.ts on shutdown). A failed write is logged and dropped: logs never fail a request.
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Principal } from './principal.js';
import { query } from './request-db.js';

/** The buffer: one array per column (no object, no id, no date string per request: the insert makes the id and the
 * timestamp; measured by `npm run bench`'s api logs scenario). */
const COLUMNS = ['accountId', 'apiKeyId', 'userId', 'kind', 'operation', 'method', 'path', 'status', 'durationMs', 'version',
  'requestId', 'atMs'] as const;
type Columns = { [name in Exclude<(typeof COLUMNS)[number], 'status'>]: unknown[] } & { status: number[] };
const noColumns = (): Columns => Object.fromEntries(COLUMNS.map((name) => [name, []])) as unknown as Columns;

// The batch goes as one array per column, unnested by PostgreSQL: a third of the database's CPU per row that one
// JSON parameter took (whose every field access parsed the row's JSON again). Ids begin with the request's time in
// milliseconds (12 hex digits, then 19 random ones: the uuid's after its version digit), so the primary key's
// inserts append (migrations/480_api_logs_cheaper_inserts.ts).
const INSERT_ROWS = `insert into api_logs (id, account_id, api_key_id, user_id, credential_kind, operation, method, path, status,
    outcome, duration_ms, api_version, request_id, created_at)
  select 'alog_' || lpad(to_hex(r.at_ms), 12, '0') || substr(replace(gen_random_uuid()::text, '-', ''), 14),
    r.account_id, r.api_key_id, r.user_id, r.kind, r.operation, r.method, r.path, r.status,
    case when r.status >= 500 then 'server_error' when r.status >= 400 then 'client_error' else 'success' end,
    r.duration_ms, r.version, r.request_id, timestamptz 'epoch' + r.at_ms * interval '1 millisecond'
  from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[],
    $10::text[], $11::text[], $12::bigint[])
    as r(account_id, api_key_id, user_id, kind, operation, method, path, status, duration_ms, version, request_id, at_ms)`;
// A batch with failed requests also keeps a summary of each one made with an app's key among the app's logs
// (GET /apps/{id}/logs, migrations/451_app_logs.ts), in the same statement; a batch of successes skips the join.
const INSERT_BATCH_WITH_APP_LOGS = `with logged as (${INSERT_ROWS}
  returning api_key_id, operation, method, path, status, outcome, duration_ms, request_id, created_at)
  insert into app_logs (id, account_id, app_id, app_build_id, source, level, message, request_id, request_method,
    request_path, response_status, outcome, wall_time_ms, created_at)
  select 'aplog_' || replace(gen_random_uuid()::text, '-', ''), a.account_id, a.id, a.production_web_build_id, 'request',
    case when l.status >= 500 then 'error' else 'warn' end,
    l.method || ' ' || l.path || ' answered ' || l.status || ' (' || l.operation || ')', l.request_id, l.method, l.path,
    l.status, l.outcome, l.duration_ms, l.created_at
  from logged l join api_keys k on k.id = l.api_key_id join apps a on a.id = k.app_id
  where l.status >= 400`;
/** The writer's own statements, for whoever counts a request's statements (the bench) to leave them out. */
export const API_LOG_STATEMENTS: ReadonlySet<string> = new Set([INSERT_ROWS, INSERT_BATCH_WITH_APP_LOGS]);

export interface ApiLogWriter {
  record(entry: { principal: Principal; operation: string; method: string; path: string; status: number;
    durationMs: number; version: string | null; requestId: string }): void;
  /** writes everything buffered now (tests await it instead of sleeping) */
  flush(): Promise<void>;
  close(): Promise<void>;
}

const MAX_BUFFERED = 50_000; // a database that cannot keep up loses the oldest logs, never the process's memory

export function apiLogWriter(db: Knex, logger: Logger, options: { flushMs?: number; batchRows?: number } = {}): ApiLogWriter {
  const flushMs = options.flushMs ?? Number(process.env.API_LOG_FLUSH_MS ?? 250);
  const batchRows = options.batchRows ?? Number(process.env.API_LOG_BATCH_ROWS ?? 500);
  let buffer = noColumns();
  let buffered = 0;
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const writeBatch = async (rows: Columns, count: number) => {
    for (let i = 0; i < count; i += batchRows) {
      try {
        const failed = rows.status.slice(i, i + batchRows).some((status) => status >= 400);
        await query(db, failed ? INSERT_BATCH_WITH_APP_LOGS : INSERT_ROWS, COLUMNS.map((name) => rows[name].slice(i, i + batchRows)));
      } catch (err) {
        logger.error({ err, rows: Math.min(batchRows, count - i) }, 'api logs not written');
      }
    }
  };
  const flush = (): Promise<void> => {
    if (timer) { clearTimeout(timer); timer = null; }
    const [rows, count] = [buffer, buffered];
    [buffer, buffered] = [noColumns(), 0];
    // Batches are written one after another, so a flush awaited by a caller includes every earlier one.
    writing = writing.then(() => (count ? writeBatch(rows, count) : undefined));
    return writing;
  };
  const schedule = () => {
    if (timer || closed) return;
    timer = setTimeout(() => { timer = null; void flush(); }, flushMs);
    timer.unref();
  };

  return {
    record(e) {
      if (closed) return;
      const p = e.principal;
      const b = buffer;
      b.accountId.push(p.kind === 'user_token' ? null : p.accountId);
      b.apiKeyId.push(p.kind === 'api_key' ? p.credentialId : null);
      b.userId.push(p.userId);
      b.kind.push(p.kind);
      b.operation.push(e.operation);
      b.method.push(e.method);
      b.path.push(e.path);
      b.status.push(e.status);
      b.durationMs.push(Math.round(e.durationMs));
      b.version.push(e.version);
      b.requestId.push(e.requestId);
      b.atMs.push(Date.now());
      if (++buffered > MAX_BUFFERED) {
        for (const name of COLUMNS) b[name].splice(0, buffered - MAX_BUFFERED);
        buffered = MAX_BUFFERED;
      }
      if (buffered >= batchRows) void flush();
      else schedule();
    },
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}
