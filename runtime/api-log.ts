// Api logs of authenticated requests, kept off the request's path: each request appends one small record to this
// process's buffer (no statement, no await), and a timer writes the buffer with one multi-row insert every
// API_LOG_FLUSH_MS (default 250) or as soon as API_LOG_BATCH_ROWS (default 500) are waiting. close() writes what
// is left (runtime/server.ts on shutdown). A failed write is logged and dropped: logs never fail a request.
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Principal } from './principal.js';
import { newId } from './ids.js';

export interface ApiLogRecord {
  id: string;
  account_id: string | null;
  api_key_id: string | null;
  user_id: string | null;
  credential_kind: string;
  operation: string;
  method: string;
  path: string;
  status: number;
  outcome: 'success' | 'client_error' | 'server_error';
  duration_ms: number;
  api_version: string | null;
  request_id: string;
  created_at: string;
}

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
  let buffer: ApiLogRecord[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const writeBatch = async (rows: ApiLogRecord[]) => {
    for (let i = 0; i < rows.length; i += batchRows) {
      try {
        await db('api_logs').insert(rows.slice(i, i + batchRows));
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
      buffer.push({
        id: newId('alog_'),
        account_id: p.kind === 'user_token' ? null : p.accountId,
        api_key_id: p.kind === 'api_key' ? p.credentialId : null,
        user_id: p.userId,
        credential_kind: p.kind,
        operation: e.operation,
        method: e.method,
        path: e.path,
        status: e.status,
        outcome: e.status >= 500 ? 'server_error' : e.status >= 400 ? 'client_error' : 'success',
        duration_ms: Math.round(e.durationMs),
        api_version: e.version,
        request_id: e.requestId,
        created_at: new Date().toISOString(),
      });
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
