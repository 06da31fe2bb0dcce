// Api logs of authenticated requests, kept off the request's path: each request appends one small record to this
// process's buffer (no statement, no await), and a timer writes the buffer with one statement every API_LOG_FLUSH_MS
// (default 250) or as soon as API_LOG_BATCH_ROWS (default 500) are waiting. close() writes what is left
// (runtime/server.ts on shutdown). A failed write is logged and dropped: logs never fail a request.
//
// Logs are stored a batch at a time (migrations/490_api_log_batches.ts): the buffer keeps one group per account and
// minute, each column of a group one text of values joined by a unit separator (U+001F, which no logged value holds:
// ids, operation names, path templates, version dates, request ids, numbers, and the paths and queries as asked, where
// Node's HTTP parser refuses control characters; an empty value is null), and a flush inserts one api_log_batches row
// per group. PostgreSQL stores the texts as they come; reads split them
// (handlers/api_logs/log-rows.ts). A row and three index entries per request cost the database ~20 µs each, a tenth
// of a read's whole cost; measured by `npm run bench` (api logs: the writer's CPU per logged request).
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Principal } from './principal.js';
import { query } from './request-db.js';

/** the unit separator (U+001F) between a column's values */
const SEPARATOR_BYTE = 0x1f;

/** A group's columns, in api_log_batches' order. */
const COLUMNS = ['apiKeyId', 'userId', 'kind', 'operation', 'method', 'path', 'status', 'durationMs', 'version', 'requestId', 'atMs',
  'target'] as const;

/** A request's values in COLUMNS' order (an empty text is stored as null). */
type RecordValues = [apiKeyId: string, userId: string, kind: string, operation: string, method: string, path: string, status: number,
  durationMs: number, version: string, requestId: string, atMs: number, target: string];

/** A failed request of an app's key: also summarised among the app's logs (GET /apps/{id}/logs, migrations/451). */
interface AppFailure { appId: string; status: number; method: string; path: string; operation: string; requestId: string; durationMs: number; atMs: number }

/**
 * One account's requests of one minute until their flush: each column's values as the text stored, joined by the
 * separator, written as bytes outside V8's heap. Kept as JavaScript values instead (an array per column and each
 * request's own strings), they lived for the 100-250 ms until their flush, long enough to survive two young
 * collections: V8 moved them to the old generation, where they stayed, dead, until the next full collection. Under
 * the bench's load that was ~1.5 MB a second and ~8 MB of an API process's resident memory after 8 s of
 * GET /accounts/{id} (old space 24-25 MB, against 16 with the api logs off). The buffers are reused by later groups.
 */
class Group {
  accountId: string | null = null;
  firstMs = 0;
  lastMs = 0;
  entries = 0;
  failures: AppFailure[] = [];
  private readonly bytes: Buffer[] = COLUMNS.map(() => Buffer.allocUnsafeSlow(1024));
  private readonly lengths: number[] = COLUMNS.map(() => 0);
  /** the repeating columns' previous values and their bytes */
  private readonly previousValues: (string | number | undefined)[] = [];
  private readonly previousEncoded: (Uint8Array | undefined)[] = [];

  open(accountId: string | null, atMs: number): this {
    this.accountId = accountId;
    this.firstMs = atMs;
    this.lastMs = atMs;
    this.entries = 0;
    this.failures = [];
    this.lengths.fill(0);
    return this;
  }

  add(values: RecordValues): void {
    const atMs = values[10];
    if (atMs < this.firstMs) this.firstMs = atMs;
    if (atMs > this.lastMs) this.lastMs = atMs;
    // Most columns repeat a few values (keys, operations, paths, statuses, versions): their bytes are encoded once and
    // copied, and a value the same as the previous request's is not even looked up.
    for (let c = 0; c < FIRST_UNIQUE_COLUMN; c++) {
      const value = values[c];
      let encoded = this.previousEncoded[c];
      if (value !== this.previousValues[c] || !encoded) {
        encoded = encodedOnce(value);
        this.previousValues[c] = value;
        this.previousEncoded[c] = encoded;
      }
      const at = this.reserve(c, encoded.length);
      for (let i = 0; i < encoded.length; i++) this.bytes[c][at + i] = encoded[i];
      this.lengths[c] = at + encoded.length;
    }
    for (let c = FIRST_UNIQUE_COLUMN; c < values.length; c++) {
      const value = values[c];
      const text = typeof value === 'string' ? value : String(value);
      const at = this.reserve(c, text.length * 3); // UTF-8 takes at most 3 bytes per UTF-16 unit
      const bytes = this.bytes[c];
      // Request ids, instants and most paths are ASCII, copied a character a byte: cheaper than an encoding call.
      let i = 0;
      for (; i < text.length; i++) {
        const code = text.charCodeAt(i);
        if (code >= 0x80) break;
        bytes[at + i] = code;
      }
      this.lengths[c] = at + (i === text.length ? i : bytes.write(text, at, 'utf8'));
    }
    this.entries++;
  }

  /** Makes room in column `c` for a separator and `most` bytes; returns where the value's bytes go. */
  private reserve(c: number, most: number): number {
    let bytes = this.bytes[c];
    let length = this.lengths[c];
    if (length + most + 1 > bytes.length) {
      const larger = Buffer.allocUnsafeSlow(Math.max(bytes.length * 2, length + most + 1));
      bytes.copy(larger, 0, 0, length);
      this.bytes[c] = bytes = larger;
    }
    if (this.entries > 0) bytes[length++] = SEPARATOR_BYTE;
    return length;
  }

  /** column `c`'s text as UTF-8 bytes (a view of the group's buffer, valid until the group is reused) */
  column(c: number): Buffer {
    return this.bytes[c].subarray(0, this.lengths[c]);
  }
}

/** PostgreSQL's type oid of `text`, named in a text[] parameter's binary form */
const TEXT_OID = 25;

/**
 * Column `c` of these groups as one text[] parameter in PostgreSQL's binary form (array_recv: dimensions, no nulls, the
 * element type, then each element's length and bytes), which pg sends as it is for a Buffer. Sent as text instead, each
 * group's text was decoded into a JavaScript string, escaped into an array literal, encoded again by pg and parsed by
 * PostgreSQL: the writer's largest cost per request (measured by bench/api-log-cost.ts). Here the bytes are copied once,
 * so the groups can be reused as soon as this returns.
 */
function textArrayParam(groups: readonly Group[], c: number): Buffer {
  let size = 20;
  for (const g of groups) size += 4 + g.column(c).length;
  const param = Buffer.allocUnsafeSlow(size);
  let at = param.writeInt32BE(1, 0); // dimensions
  at = param.writeInt32BE(0, at); // no element is null
  at = param.writeInt32BE(TEXT_OID, at);
  at = param.writeInt32BE(groups.length, at);
  at = param.writeInt32BE(1, at); // lower bound
  for (const g of groups) {
    const text = g.column(c);
    at = param.writeInt32BE(text.length, at);
    at += text.copy(param, at);
  }
  return param;
}

/** COLUMNS from requestId on hold a new value for nearly every request */
const FIRST_UNIQUE_COLUMN = 9;
const ENCODED_LIMIT = 10_000;
const encoded = new Map<string | number, Uint8Array>();
/** The UTF-8 bytes of a value that recurs, kept (up to ENCODED_LIMIT values, then started afresh). */
function encodedOnce(value: string | number): Uint8Array {
  let bytes = encoded.get(value);
  if (!bytes) {
    if (encoded.size >= ENCODED_LIMIT) encoded.clear();
    bytes = new Uint8Array(Buffer.from(String(value), 'utf8'));
    encoded.set(value, bytes);
  }
  return bytes;
}

/** The failed requests of apps' keys among the groups, as the app log insert's columns. */
function appFailures(failures: readonly AppFailure[]): unknown[][] {
  const fields = ['appId', 'status', 'method', 'path', 'operation', 'requestId', 'durationMs', 'atMs'] as const;
  return fields.map((field) => failures.map((f) => f[field]));
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
const MAX_SPARE_GROUPS = 64;
/** A batch holds the requests of one account in one minute: its first and last lie less than this apart, which the
 * reads rely on (handlers/api_logs/listApiLogs.ts) and the table checks (migrations/490_api_log_batches.ts). */
export const API_LOG_BATCH_MS = 60_000;

export function apiLogWriter(db: Knex, logger: Logger, options: { flushMs?: number; batchRows?: number } = {}): ApiLogWriter {
  const flushMs = options.flushMs ?? Number(process.env.API_LOG_FLUSH_MS ?? 250);
  const batchRows = options.batchRows ?? Number(process.env.API_LOG_BATCH_ROWS ?? 500);
  let groups = new Map<string, Group>();
  const spare: Group[] = []; // groups already flushed, their buffers kept for the next ones
  let buffered = 0;
  /** the group the latest request went to, and its minute: undefined once flushed (the group may be reused) */
  let last: Group | undefined;
  let lastMinute = 0;
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const writeBatch = async (params: unknown[], count: number) => {
    try {
      await query(db, params.length > 16 ? INSERT_WITH_APP_LOGS : INSERT_BATCHES, params);
    } catch (err) {
      logger.error({ err, rows: count }, 'api logs not written');
    }
  };
  /** The statement's parameters for these groups: their texts are copied now, so that the groups can be reused. */
  const batchParams = (written: Group[]): unknown[] => {
    const params: unknown[] = [written.map((g) => g.accountId), written.map((g) => g.firstMs), written.map((g) => g.lastMs),
      written.map((g) => g.entries), ...COLUMNS.map((_, c) => textArrayParam(written, c))];
    const failures = written.flatMap((g) => g.failures);
    if (failures.length) params.push(...appFailures(failures));
    return params;
  };
  const flush = (): Promise<void> => {
    if (timer) { clearTimeout(timer); timer = null; }
    const written = [...groups.values()];
    const count = buffered;
    const params = count ? batchParams(written) : [];
    [groups, buffered, last] = [new Map(), 0, undefined];
    spare.push(...written.slice(0, Math.max(0, MAX_SPARE_GROUPS - spare.length)));
    // Batches are written one after another, so a flush awaited by a caller includes every earlier one.
    writing = writing.then(() => (count ? writeBatch(params, count) : undefined));
    return writing;
  };
  const schedule = () => {
    if (timer || closed) return;
    timer = setTimeout(() => { timer = null; void flush(); }, flushMs);
    timer.unref();
  };

  return {
    record(e) {
      if (closed || buffered >= MAX_BUFFERED) return;
      const p = e.principal;
      const atMs = Date.now();
      const accountId = p.kind === 'user_token' ? null : p.accountId;
      const minute = Math.floor(atMs / API_LOG_BATCH_MS);
      // Consecutive requests are mostly one account's in one minute: its group is found without building its key.
      let g = last && last.accountId === accountId && lastMinute === minute ? last : undefined;
      if (!g) {
        const key = `${accountId ?? ''} ${minute}`;
        g = groups.get(key);
        if (!g) {
          g = (spare.pop() ?? new Group()).open(accountId, atMs);
          groups.set(key, g);
        }
        [last, lastMinute] = [g, minute];
      }
      const durationMs = Math.round(e.durationMs);
      g.add([p.kind === 'api_key' ? p.credentialId : '', p.userId ?? '', p.kind, e.operation, e.method, e.path, e.status, durationMs,
        e.version ?? '', e.requestId, atMs, e.target ?? '']);
      if (e.status >= 400 && p.appId) {
        g.failures.push({ appId: p.appId, status: e.status, method: e.method, path: e.path, operation: e.operation, requestId: e.requestId,
          durationMs, atMs });
      }
      if (++buffered >= batchRows) void flush();
      else schedule();
    },
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}
