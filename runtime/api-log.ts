// Api logs of authenticated requests, kept off the request's path: each request appends one small record to this
// process's buffer (no statement, no await), and a timer writes the buffer with one statement every API_LOG_FLUSH_MS
// (default 250) or as soon as API_LOG_BATCH_ROWS (default 500) are waiting. close() writes what is left
// (runtime/server.ts on shutdown). A failed write is logged and dropped: logs never fail a request.
//
// Logs are stored a batch at a time (migrations/490_api_log_batches.ts): a flush groups the buffered records by account
// and minute, each column of a group one text of values joined by a unit separator (U+001F, which no logged value
// holds: ids, operation names, path templates, version dates, request ids, numbers, and the paths and queries as asked,
// where Node's HTTP parser refuses control characters; an empty value is null), and inserts one api_log_batches row per
// group. PostgreSQL stores the texts as they come; reads split them
// (handlers/api_logs/log-rows.ts). A row and three index entries per request cost the database ~20 µs each, a tenth
// of a read's whole cost; measured by `npm run bench` (api logs: the writer's CPU per logged request).
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Principal } from './principal.js';
import { query } from './request-db.js';

const LOG_SEPARATOR = '\x1f';

/** A group's columns, in api_log_batches' order. */
const COLUMNS = ['apiKeyId', 'userId', 'kind', 'operation', 'method', 'path', 'status', 'durationMs', 'version', 'requestId', 'atMs',
  'target'] as const;

type Group = { [name in (typeof COLUMNS)[number]]: (string | number | null)[] } & {
  accountId: string | null; firstMs: number; lastMs: number;
  /** each request's app (its key's), not stored with the batch: failed requests of an app's key are also summarised
   * among the app's logs (GET /apps/{id}/logs, migrations/451) */
  appId: (string | null)[];
};

/** The failed requests of apps' keys among the groups, as the app log insert's columns. */
function appFailures(groups: Group[]): unknown[][] {
  const columns: unknown[][] = [[], [], [], [], [], [], [], []];
  for (const g of groups) {
    g.status.forEach((status, i) => {
      if (Number(status) < 400 || !g.appId[i]) return;
      [g.appId, g.status, g.method, g.path, g.operation, g.requestId, g.durationMs, g.atMs].forEach((column, c) => columns[c].push(column[i]));
    });
  }
  return columns;
}

const INSERT_BATCHES = `insert into api_log_batches (id, account_id, first_at, last_at, entries, api_key_ids, user_ids, kinds, operations,
    methods, paths, statuses, durations, versions, request_ids, created_ms, targets)
  select 'alogb_' || lpad(to_hex(g.first_ms), 12, '0') || substr(replace(gen_random_uuid()::text, '-', ''), 14), g.account_id,
    timestamptz 'epoch' + g.first_ms * interval '1 millisecond', timestamptz 'epoch' + g.last_ms * interval '1 millisecond', g.entries,
    g.api_key_ids, g.user_ids, g.kinds, g.operations, g.methods, g.paths, g.statuses, g.durations, g.versions, g.request_ids, g.created_ms, g.targets
  from unnest($1::text[], $2::bigint[], $3::bigint[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
    $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[])
    as g(account_id, first_ms, last_ms, entries, api_key_ids, user_ids, kinds, operations, methods, paths, statuses, durations, versions,
      request_ids, created_ms, targets)`;
// A request line's id leads with its millisecond and its place in the batch, so two failures answered in the same
// millisecond list (created_at, then id) in the order they were answered.
const INSERT_WITH_APP_LOGS = `with batched as (${INSERT_BATCHES})
  insert into app_logs (id, account_id, app_id, app_build_id, source, level, message, request_id, request_method,
    request_path, response_status, outcome, wall_time_ms, created_at)
  select 'aplog_' || lpad(to_hex(f.at_ms), 12, '0') || lpad(to_hex(f.ord), 4, '0') || substr(replace(gen_random_uuid()::text, '-', ''), 13),
    a.account_id, a.id, a.production_web_build_id, 'request',
    case when f.status >= 500 then 'error' else 'warn' end,
    f.method || ' ' || f.path || ' answered ' || f.status || ' (' || f.operation || ')', f.request_id, f.method, f.path,
    f.status, case when f.status >= 500 then 'server_error' else 'client_error' end, f.duration_ms,
    timestamptz 'epoch' + f.at_ms * interval '1 millisecond'
  from unnest($17::text[], $18::int[], $19::text[], $20::text[], $21::text[], $22::text[], $23::int[], $24::bigint[]) with ordinality
    as f(app_id, status, method, path, operation, request_id, duration_ms, at_ms, ord)
  join apps a on a.id = f.app_id`;
/** The writer's own statements, for whoever counts a request's statements (the bench) to leave them out. */
export const API_LOG_STATEMENTS: ReadonlySet<string> = new Set([INSERT_BATCHES, INSERT_WITH_APP_LOGS]);

export interface ApiLogWriter {
  record(entry: { principal: Principal; operation: string; method: string; path: string; status: number;
    durationMs: number; version: string | null; requestId: string;
    /** a read's path and query as asked (below the base path), for the shadow replay; absent for writes */
    target?: string | null }): void;
  /** writes everything buffered now (tests await it instead of sleeping) */
  flush(): Promise<void>;
  close(): Promise<void>;
}

const MAX_BUFFERED = 50_000; // a database that cannot keep up loses logs (the newest), never the process's memory
/** A batch holds the requests of one account in one minute: its first and last lie less than this apart, which the
 * reads rely on (handlers/api_logs/listApiLogs.ts) and the table checks (migrations/490_api_log_batches.ts). */
export const API_LOG_BATCH_MS = 60_000;

/** A record's fields in COLUMNS' order, then its app (empty for none). */
type RecordFields = [apiKeyId: string, userId: string, kind: string, operation: string, method: string, path: string, status: number,
  durationMs: number, version: string, requestId: string, atMs: number, target: string, appId: string];
const RECORD_END = '\x1e';

/**
 * The records waiting for the next flush, as bytes outside V8's heap: each one a line of its account and fields. Kept
 * as JavaScript values (a group's column arrays and each request's own strings), they lived for the 100-250 ms until
 * their flush, long enough to survive two young collections: V8 moved them to the old generation, where they stayed,
 * dead, until the next full collection. Under the bench's load that was ~1.5 MB a second and ~8 MB of the API
 * process's resident memory after 8 s (old space 24-25 MB against 16 with the api logs off). A line is written with
 * one copy and the buffer reused; the groups are built at the flush, and die with its statement.
 */
class PendingRecords {
  private bytes = Buffer.allocUnsafeSlow(256 * 1024);
  private length = 0;
  count = 0;

  add(accountId: string | null, fields: RecordFields): void {
    const line = `${accountId ?? ''}${LOG_SEPARATOR}${fields.join(LOG_SEPARATOR)}${RECORD_END}`;
    const most = line.length * 3; // UTF-8 bytes of a UTF-16 code unit
    if (this.length + most > this.bytes.length) {
      const larger = Buffer.allocUnsafeSlow(Math.max(this.bytes.length * 2, this.length + most));
      this.bytes.copy(larger, 0, 0, this.length);
      this.bytes = larger;
    }
    this.length += this.bytes.write(line, this.length, 'utf8');
    this.count++;
  }

  /** The records as groups (one per account and minute), leaving none. */
  takeGroups(): Group[] {
    const lines = this.bytes.toString('utf8', 0, this.length).split(RECORD_END);
    this.length = 0;
    this.count = 0;
    const groups = new Map<string, Group>();
    for (let l = 0; l < lines.length - 1; l++) {
      const [accountText, ...fields] = lines[l].split(LOG_SEPARATOR);
      const accountId = accountText || null;
      const atMs = Number(fields[10]);
      const key = `${accountText} ${Math.floor(atMs / API_LOG_BATCH_MS)}`;
      let g = groups.get(key);
      if (!g) {
        g = { accountId, firstMs: atMs, lastMs: atMs, apiKeyId: [], userId: [], kind: [], operation: [], method: [], path: [], status: [],
          durationMs: [], version: [], requestId: [], atMs: [], target: [], appId: [] };
        groups.set(key, g);
      }
      if (atMs < g.firstMs) g.firstMs = atMs;
      if (atMs > g.lastMs) g.lastMs = atMs;
      COLUMNS.forEach((name, c) => g[name].push(fields[c]));
      g.appId.push(fields[12] || null);
    }
    return [...groups.values()];
  }
}

export function apiLogWriter(db: Knex, logger: Logger, options: { flushMs?: number; batchRows?: number } = {}): ApiLogWriter {
  const flushMs = options.flushMs ?? Number(process.env.API_LOG_FLUSH_MS ?? 250);
  const batchRows = options.batchRows ?? Number(process.env.API_LOG_BATCH_ROWS ?? 500);
  const pending = new PendingRecords();
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const writeBatch = async (written: Group[], count: number) => {
    try {
      const text = (g: Group, name: (typeof COLUMNS)[number]) => g[name].join(LOG_SEPARATOR);
      const params: unknown[] = [written.map((g) => g.accountId), written.map((g) => g.firstMs), written.map((g) => g.lastMs),
        written.map((g) => g.atMs.length), ...COLUMNS.map((name) => written.map((g) => text(g, name)))];
      const failures = appFailures(written);
      if (failures[0].length) params.push(...failures);
      await query(db, failures[0].length ? INSERT_WITH_APP_LOGS : INSERT_BATCHES, params);
    } catch (err) {
      logger.error({ err, rows: count }, 'api logs not written');
    }
  };
  const flush = (): Promise<void> => {
    if (timer) { clearTimeout(timer); timer = null; }
    const count = pending.count;
    const written = count ? pending.takeGroups() : [];
    // Batches are written one after another, so a flush awaited by a caller includes every earlier one.
    writing = writing.then(() => (count ? writeBatch(written, count) : undefined));
    return writing;
  };
  const schedule = () => {
    if (timer || closed) return;
    timer = setTimeout(() => { timer = null; void flush(); }, flushMs);
    timer.unref();
  };

  return {
    record(e) {
      if (closed || pending.count >= MAX_BUFFERED) return;
      const p = e.principal;
      pending.add(p.kind === 'user_token' ? null : p.accountId, [p.kind === 'api_key' ? p.credentialId : '', p.userId ?? '', p.kind,
        e.operation, e.method, e.path, e.status, Math.round(e.durationMs), e.version ?? '', e.requestId, Date.now(), e.target ?? '',
        p.appId ?? '']);
      if (pending.count >= batchRows) void flush();
      else schedule();
    },
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}
