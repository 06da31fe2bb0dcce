// One pooled connection per request: authentication, access checks, the handler's reads and its transaction all
// run on it. The pool is touched once per request instead of once per query, which is most of what knex costs
// over plain pg on a read (measured by `npm run bench`).
import type { Knex } from 'knex';
import pg from 'pg';
import { quoteLiteral } from './sql-literal.js';
import { alignSession } from './clock.js';
import { compileBuilt } from './built-statements.js';
import { namedQuery } from './described-statements.js';
import { lendConnection } from './warm-connections.js';

type QueryConfig = { name?: string; text: string; values: unknown[] };
type Connection = {
  query(statement: pg.Query): void;
};

/**
 * A statement on a pg client, answered by callback. pg's promise form (`client.query(config)` without a callback)
 * kept each request's objects alive across two young-generation collections, so that V8 copied and then promoted
 * them: about 1 MB promoted per scavenge under load against none by callback (node --trace-gc-nvp, the same
 * requests), and a fifth more requests per second on a request that runs one statement.
 */
function send(conn: Connection, config: QueryConfig): Promise<{ rows: any[] }> {
  return new Promise((resolve, reject) => {
    const done = (err: Error | undefined, result: { rows: any[] }) => (err ? reject(err) : resolve(result));
    // Made from the text, named afterwards: pg copies a config object by its property descriptors (~1.8 µs a
    // statement, `node` alone) and a text not at all; a Query is submitted as it is.
    conn.query(config.name ? namedQuery(conn, config.name, config.text, config.values, done) : new pg.Query(config.text, config.values, done));
  });
}

/** Statement names by SQL text: each fixed statement is parsed and planned once per connection, then executed by
 * name (PostgreSQL keeps the prepared statement for the connection's life). The texts are constants of the code,
 * so the map and each connection's statements stay bounded. */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `fixed_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * The rows of a select built with the query builder: on the request's connection, its text is sent as it is,
 * skipping knex's runner; elsewhere (a knex transaction), through knex. Unnamed unless `prepared`, so planned for
 * its values each time: a prepared statement gets a generic plan after five executions, chosen without knowing the
 * values, which only a statement with one good plan for every value may take (pagination.ts: a led page). Its text
 * must then come from a bounded set of shapes (values in bindings), as each is kept per connection.
 */
export async function selectBuilt<Row>(q: Knex.QueryBuilder, prepared = false): Promise<Row[]> {
  const conn = (q as unknown as { _connection?: unknown })._connection;
  if (!isRawClient(conn)) return (await q) as Row[];
  const { sql, bindings } = compileBuilt(q);
  const statement: QueryConfig = { text: sql, values: bindings };
  if (prepared) statement.name = statementName(sql);
  const rows = (await send(conn, statement)).rows as Row[];
  const shown = (conn as RequestConnection)[SHOWN_HIDDEN];
  if (shown) for (const row of rows as { id?: unknown }[]) if (typeof row.id === 'string') shown.rows.set(row.id, row as Record<string, unknown>);
  return rows;
}

/** The fields the head hides that this request's version shows, of one schema (runtime/plain/hidden-fields.ts): the
 * rows selectBuilt reads on the request's connection are kept by id for the request, so that a list that selected
 * them with its page needs no statement of its own to fill them. */
interface ShownHidden { schema: string; fields: readonly string[]; rows: Map<string, Record<string, unknown>> }
const SHOWN_HIDDEN = Symbol('hidden fields shown');

/** Marks the request's reads as answering a version that shows `fields` of `schema` (nothing off a request's
 * connection). */
export function showHiddenFields(db: Knex, schema: string, fields: readonly string[]): void {
  const conn = requestConnection(db);
  if (conn) conn[SHOWN_HIDDEN] = { schema, fields, rows: new Map() };
}

/** The hidden fields of `schema` the request's version shows (showHiddenFields), if any. */
export function hiddenFieldsShown(db: Knex, schema: string): readonly string[] | undefined {
  const shown = requestConnection(db)?.[SHOWN_HIDDEN];
  return shown?.schema === schema ? shown.fields : undefined;
}

/** A row the request read by selectBuilt while hidden fields of `schema` were shown, by id. */
export function rowReadWithHidden(db: Knex, schema: string, id: string): Record<string, unknown> | undefined {
  const shown = requestConnection(db)?.[SHOWN_HIDDEN];
  return shown?.schema === schema ? shown.rows.get(id) : undefined;
}

/** a pg client lent by the pool: what withConnection binds builders to (knex's own transactions bind none) */
const isRawClient = (c: unknown): c is Connection => typeof (c as Connection | undefined)?.query === 'function';

const RAW_CLIENT = Symbol('raw pg client');

function bind(db: Knex, conn: Connection): Knex {
  const bound = (table?: string) => (table === undefined ? db.queryBuilder() : db(table)).connection(conn as never);
  return new Proxy(bound, {
    get(_target, prop) {
      if (prop === RAW_CLIENT) return conn;
      if (prop === 'raw') return (...args: unknown[]) => (db.raw as (...a: unknown[]) => Knex.Raw)(...args).connection(conn as never);
      if (prop === 'queryBuilder') return () => db.queryBuilder().connection(conn as never);
      if (prop === 'transaction') {
        return (scope: (trx: Knex.Transaction) => unknown, config: Knex.TransactionConfig = {}) =>
          db.transaction(scope as never, { ...config, connection: conn } as Knex.TransactionConfig);
      }
      const value = (db as unknown as Record<PropertyKey, unknown>)[prop];
      return typeof value === 'function' ? value.bind(db) : value;
    },
    apply(_target, _this, args: [string?]) {
      return bound(...args);
    },
  }) as unknown as Knex;
}

type PoolClient = { releaseConnection(c: Connection): Promise<unknown> };

export async function withConnection<T>(db: Knex, run: (bound: Knex) => Promise<T>): Promise<T> {
  const lent = lendConnection<Connection>(db);
  const conn = lent instanceof Promise ? await lent : lent;
  try {
    return await run(bind(db, conn));
  } finally {
    delete (conn as RequestConnection)[SHOWN_HIDDEN];
    // knex's release answers a resolved promise: nothing to wait for
    void (db.client as PoolClient).releaseConnection(conn);
  }
}

/**
 * Runs fixed SQL on plain pg as a prepared statement, skipping the query builder: on the request's connection, a
 * transaction's connection, or one borrowed from the pool. For the runtime's own per-request lookups and hot paths.
 * `text` must be a constant (values go in `values`, placeholders $1, $2): each distinct text is prepared once per
 * connection. Planning a join costs PostgreSQL more than running it on a few indexed rows (measured by
 * `npm run bench`, which prints the database's CPU per request).
 */
export async function query<Row = Record<string, any>>(db: Knex, text: string, values: unknown[]): Promise<Row[]> {
  const statement = { name: statementName(text), text, values };
  const bound = requestConnection(db);
  if (bound) return (await send(bound, statement)).rows as Row[];
  // A transaction's client hands out its own connection and releases nothing; a pool lends one.
  const lent = lendConnection<Connection>(db);
  const conn = lent instanceof Promise ? await lent : lent;
  try {
    return (await send(conn, statement)).rows as Row[];
  } finally {
    void (db.client as PoolClient).releaseConnection(conn);
  }
}

/**
 * Runs `work` in one transaction. On the request's own connection that is BEGIN/COMMIT on it (knex's transaction
 * object costs more per request than the rest of a create; measured by `npm run bench`); elsewhere, knex's.
 * `opening` statements run first in the transaction, sent with BEGIN in one round trip on the request's connection
 * (so they must be constant SQL without parameters); `work` gets their rows.
 */
export async function inTransaction<T>(db: Knex, work: (db: Knex, opened: any[][]) => Promise<T>, opening: string[] = []): Promise<T> {
  const conn = requestConnection(db);
  if (!conn) {
    return db.transaction(async (trx) => {
      const opened: any[][] = [];
      for (const statement of opening) opened.push((await trx.raw(statement)).rows ?? []);
      return work(trx, opened);
    });
  }
  if (conn[READ_ONLY]) {
    // Inside a replay's read-only transaction (below): its statements run in it; a write fails there, and a COMMIT
    // would end it early.
    const opened: any[][] = [];
    for (const statement of opening) opened.push((await send(conn, { text: statement, values: [] })).rows ?? []);
    return work(db, opened);
  }
  const begun = await send(conn, { text: ['BEGIN', ...opening].join('; '), values: [] });
  // A multi-statement simple query answers with one result per statement.
  const opened = opening.length ? (begun as unknown as { rows: any[] }[]).slice(1).map((r) => r.rows) : [];
  conn[IN_TRANSACTION] = true;
  let committing = false;
  try {
    const result = await work(db, opened);
    const refusable = conn[REFUSABLE_AT_COMMIT] ?? [];
    committing = true;
    // A failing statement among these skips the COMMIT after it; the catch below rolls back.
    await send(conn, { text: [...(conn[AT_COMMIT] ?? []), ...jobsStatement(conn), ...refusable.map((w) => w.statement), 'COMMIT'].join('; '), values: [] });
    return result;
  } catch (e) {
    try {
      await send(conn, { text: ['ROLLBACK', ...(conn[ON_REFUSAL] ?? [])].join('; '), values: [] });
    } catch {
      // A connection that cannot roll back must not go back to the pool: knex's pg client evicts disposed ones.
      (conn as unknown as { __knex__disposed?: unknown }).__knex__disposed = e;
    }
    const refusal = committing ? refusalOf(conn[REFUSABLE_AT_COMMIT], e) : undefined;
    throw refusal ? Object.assign(refusal, { [REFUSED_AT_COMMIT]: true }) : e;
  } finally {
    dropDeferred(conn);
    delete conn[ON_REFUSAL];
    delete conn[IN_TRANSACTION];
  }
}

/** Forgets the writes and jobs waiting for the COMMIT: they belong to work undone, or already sent. */
function dropDeferred(conn: RequestConnection): void {
  delete conn[AT_COMMIT];
  delete conn[JOBS_AT_COMMIT];
  delete conn[REFUSABLE_AT_COMMIT];
}

/** What the first of `writes` that recognises `e` answers for it. */
function refusalOf(writes: RefusableWrite[] | undefined, e: unknown): Error | undefined {
  for (const write of writes ?? []) {
    const refusal = write.refusal(e);
    if (refusal) return refusal;
  }
  return undefined;
}

const AT_COMMIT = Symbol('statements sent with COMMIT');
const REFUSABLE_AT_COMMIT = Symbol('writes that may refuse the request, sent last before COMMIT');
const REFUSED_AT_COMMIT = Symbol('a refusal raised by the COMMIT\'s round trip');
const JOBS_AT_COMMIT = Symbol('jobs added with COMMIT');
const ON_REFUSAL = Symbol('statements sent after the refusal\'s rollback');
const IN_TRANSACTION = Symbol('inside inTransaction');
const READ_ONLY = Symbol('inside inReadOnlyTransaction');

/** The request's own pg connection behind a bound Knex (withConnection), with what a transaction on it keeps. */
type RequestConnection = Connection & { [AT_COMMIT]?: string[]; [JOBS_AT_COMMIT]?: object[]; [ON_REFUSAL]?: string[];
  [REFUSABLE_AT_COMMIT]?: RefusableWrite[];
  [IN_TRANSACTION]?: true; [READ_ONLY]?: true;
  [SHOWN_HIDDEN]?: ShownHidden };

/**
 * Runs `work` on the request's own connection in a read-only transaction that is always rolled back: PostgreSQL
 * refuses any write in it (a replayed read, runtime/replay.ts, can change nothing). Only on a request's connection.
 */
export async function inReadOnlyTransaction<T>(db: Knex, work: () => Promise<T>): Promise<T> {
  const conn = requestConnection(db);
  if (!conn) throw new Error('inReadOnlyTransaction needs a request\'s own connection (withConnection)');
  if (conn[READ_ONLY] || conn[IN_TRANSACTION]) throw new Error('inReadOnlyTransaction cannot run inside a transaction');
  await send(conn, { text: 'BEGIN TRANSACTION READ ONLY', values: [] });
  conn[READ_ONLY] = true;
  try {
    return await work();
  } finally {
    delete conn[READ_ONLY];
    dropDeferred(conn);
    try {
      await send(conn, { text: 'ROLLBACK', values: [] });
    } catch (e) {
      (conn as unknown as { __knex__disposed?: unknown }).__knex__disposed = e;
    }
  }
}
function requestConnection(db: Knex): RequestConnection | undefined {
  return (db as unknown as Record<symbol, RequestConnection | undefined>)[RAW_CLIENT];
}

/**
 * A write whose result nobody reads, sent with the transaction's COMMIT in one round trip on the request's
 * connection (run at once elsewhere). A simple query admits no parameters: the statement's values must be literals
 * quoted by quoteLiteral, runtime/sql-literal.ts. If it fails, the transaction rolls back with it.
 */
export async function atCommit(db: Knex, statement: string): Promise<void> {
  const conn = requestConnection(db);
  if (!conn) {
    await db.raw(statement);
    return;
  }
  (conn[AT_COMMIT] ??= []).push(statement);
}

/** Sets the request's own connection to the clock the request runs on (runtime/clock.ts): it was lent before the
 * credential said which. */
export async function alignRequestConnection(db: Knex): Promise<void> {
  const conn = requestConnection(db);
  if (conn) await alignSession(conn as never);
}

/** Undoes the transaction's work since `SAVEPOINT name`, keeping what came before. */
export async function rollbackToSavepoint(db: Knex, name: string): Promise<void> {
  const conn = requestConnection(db);
  if (conn) {
    // The writes deferred to the commit (events, jobs) belong to the work undone: the request's one savepoint is
    // taken before its work, so none of them survives it.
    dropDeferred(conn);
    const kept = conn[ON_REFUSAL] ?? [];
    delete conn[ON_REFUSAL];
    await send(conn, { text: [`ROLLBACK TO SAVEPOINT ${name}`, ...kept].join('; '), values: [] });
  } else await db.raw(`ROLLBACK TO SAVEPOINT ${name}`);
}

/**
 * A write that stands when the request is refused (a refusal that means a hold): inside the request's transaction
 * it is sent after the refusal's ROLLBACK in the same round trip, or after the rollback to the request's savepoint
 * when the refusal is kept for its idempotency key and committed with it; on success it is dropped, since the
 * statement belongs to the refusal. Never on a second connection: a request holding a lock while it waits for the
 * pool deadlocks once every other pooled connection waits on that lock (20 concurrent payouts of one account past
 * the KYC limit hung the server, `npm run bench`'s POST /payouts). Outside a request's transaction it runs at once.
 */
export async function keepOnRefusal(db: Knex, text: string, values: unknown[]): Promise<void> {
  const conn = requestConnection(db);
  if (conn?.[IN_TRANSACTION]) (conn[ON_REFUSAL] ??= []).push(inlineParameters(text, values));
  else await query(db, text, values);
}

/**
 * A write whose result nobody reads (an outbox event, a job), with parameters: inside a request's transaction it is
 * sent with the COMMIT (its values inlined as literals: the COMMIT's round trip is a simple query, which admits no
 * parameters), saving the write's own round trip; anywhere else it runs at once as a prepared statement.
 */
export async function writeAtCommit(db: Knex, text: string, values: unknown[]): Promise<void> {
  const conn = requestConnection(db);
  if (conn?.[IN_TRANSACTION]) (conn[AT_COMMIT] ??= []).push(inlineParameters(text, values));
  else await query(db, text, values);
}

/** A write sent last before the COMMIT, and what its failure answers (an error to throw instead), if it is a refusal. */
interface RefusableWrite { statement: string; refusal: (e: unknown) => Error | undefined }

/**
 * A write that may refuse the request (a constraint it can break, such as a balance's floor), whose result nobody
 * reads: inside a request's transaction it is sent with the COMMIT, after the other writes waiting for it, so that
 * the rows it locks stay locked for that round trip only, not from the middle of the request's work to its end (one
 * account's payouts queue on its balance: POST /payouts, `npm run bench`). When it fails, the transaction rolls back
 * and the request fails with what `refusal` answers for the error (marked: refusedAtCommit), or with the error itself
 * when `refusal` answers nothing. Anywhere else it runs at once, its failure answered the same way.
 */
export async function refusableAtCommit(db: Knex, text: string, values: unknown[], refusal: (e: unknown) => Error | undefined): Promise<void> {
  const conn = requestConnection(db);
  if (conn?.[IN_TRANSACTION]) {
    (conn[REFUSABLE_AT_COMMIT] ??= []).push({ statement: inlineParameters(text, values), refusal });
    return;
  }
  try {
    await query(db, text, values);
  } catch (e) {
    throw refusal(e) ?? e;
  }
}

/** Whether `e` is a refusal that a write sent with the COMMIT raised (refusableAtCommit): the request's transaction
 * rolled back, the work before it included. */
export const refusedAtCommit = (e: unknown): boolean =>
  typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[REFUSED_AT_COMMIT] === true;

/**
 * A job (runtime/jobs.ts's form of public.app_add_jobs' rows) added with the COMMIT of the request's transaction: all
 * of a request's jobs go in one call there (runtime/migrations/002_add_jobs.ts), in the order they were queued.
 * False outside a request's transaction, where the caller adds it at once.
 */
export function jobAtCommit(db: Knex, job: object): boolean {
  const conn = requestConnection(db);
  if (!conn?.[IN_TRANSACTION]) return false;
  (conn[JOBS_AT_COMMIT] ??= []).push(job);
  return true;
}

/** The statement adding `jobs` (jobAtCommit's rows) in one call, as a COMMIT sends them. */
export const addJobsStatement = (jobs: readonly object[]): string =>
  `select public.app_add_jobs(${quoteLiteral(JSON.stringify(jobs))}::json)`;

/** The statement adding the transaction's jobs, when it queued any. */
function jobsStatement(conn: RequestConnection): string[] {
  const jobs = conn[JOBS_AT_COMMIT];
  return jobs?.length ? [addJobsStatement(jobs)] : [];
}

/** `text` with each $n replaced by values[n - 1] as a literal (strings quoted by quoteLiteral, runtime/sql-literal.ts). */
export function inlineParameters(text: string, values: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => literal(values[Number(n) - 1]));
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return quoteLiteral(value.toISOString());
  if (typeof value === 'string') return quoteLiteral(value);
  throw new Error(`no literal for a ${typeof value}`);
}
