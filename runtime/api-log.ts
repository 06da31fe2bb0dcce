// Api logs of authenticated requests, kept off the request's path: each request appends one small record to this
// process's buffer (no statement, no await), and a timer writes the buffer with one statement (the batch as one JSON parameter) every
// API_LOG_FLUSH_MS (default 250) or as soon as API_LOG_BATCH_ROWS (default 500) are waiting. close() writes what
// is left (runtime/server.ts on shutdown). A failed write is logged and dropped: logs never fail a request.
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Principal } from './principal.js';
import { query } from './request-db.js';

/** One logged request as the buffer holds it: a flat tuple (no object, no id, no date string per request: the insert
 * makes the id and the timestamp; measured by `npm run bench`'s api logs scenario). */
type Buffered = [accountId: string | null, apiKeyId: string | null, userId: string | null, kind: string, operation: string,
  method: string, path: string, status: number, durationMs: number, version: string | null, requestId: string, atMs: number];

// The whole batch is one JSON parameter: the driver sends it as one string, and PostgreSQL unpacks it. Ids begin
// with the request's time in milliseconds (12 hex digits, then 19 random ones: the uuid's after its version digit),
// so the primary key's inserts append (migrations/480_api_logs_cheaper_inserts.ts).
const INSERT_BATCH = `insert into api_logs (id, account_id, api_key_id, user_id, credential_kind, operation, method, path, status,
    outcome, duration_ms, api_version, request_id, created_at)
  select 'alog_' || lpad(to_hex((r->>11)::bigint), 12, '0') || substr(replace(gen_random_uuid()::text, '-', ''), 14),
    r->>0, r->>1, r->>2, r->>3, r->>4, r->>5, r->>6, (r->>7)::int,
    case when (r->>7)::int >= 500 then 'server_error' when (r->>7)::int >= 400 then 'client_error' else 'success' end,
    (r->>8)::int, r->>9, r->>10, timestamptz 'epoch' + (r->>11)::bigint * interval '1 millisecond'
  from json_array_elements($1::json) as r`;

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
  let buffer: Buffered[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const writeBatch = async (rows: Buffered[]) => {
    for (let i = 0; i < rows.length; i += batchRows) {
      try {
        await query(db, INSERT_BATCH, [JSON.stringify(rows.slice(i, i + batchRows))]);
      } catch (err) {
        logger.error({ err, rows: Math.min(batchRows, rows.length - i) }, 'api logs not written');
      }
    }
  };
  const flush = (): Promise<void> => {
    if (timer) { clearTimeout(timer); timer = null; }
    const rows = buffer;
    buffer = [];
    // Batches are written one after another, so a flush awaited by a caller includes every earlier one.
    writing = writing.then(() => (rows.length ? writeBatch(rows) : undefined));
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
      buffer.push([p.kind === 'user_token' ? null : p.accountId, p.kind === 'api_key' ? p.credentialId : null, p.userId, p.kind,
        e.operation, e.method, e.path, e.status, Math.round(e.durationMs), e.version, e.requestId, Date.now()]);
      if (buffer.length > MAX_BUFFERED) buffer.splice(0, buffer.length - MAX_BUFFERED);
      if (buffer.length >= batchRows) void flush();
      else schedule();
    },
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}
