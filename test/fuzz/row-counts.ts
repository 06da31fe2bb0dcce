// "A refused request writes no row", checked cheaply: exact row counts of every public table (and the job queue)
// in one query, taken around batches of requests the validators refuse, and around each request they accept.
// A batch whose counts moved is replayed one request at a time to name the request that wrote.
// The counting statement is prepared once on a connection of its own: planning its hundred-odd subqueries took most
// of the 20 ms a snapshot cost, and a run takes thousands of them.
import type { Knex } from 'knex';
import pg from 'pg';

export class RowCounts {
  private sql = '';
  private tables: string[] = [];
  snapshots = 0;
  /** time spent taking them, so a run shows what the check costs */
  milliseconds = 0;

  private client: pg.Client;

  constructor(private readonly db: Knex, databaseUrl: string) {
    this.client = new pg.Client({ connectionString: databaseUrl });
  }

  async init(): Promise<void> {
    const rows = await this.db('information_schema.tables').where({ table_schema: 'public', table_type: 'BASE TABLE' })
      .whereNot('table_name', 'like', 'knex_%')
      // Api logs record every authenticated request, refused ones too, by design (runtime/api-log.ts).
      .whereNot('table_name', 'api_log_batches').orderBy('table_name').select('table_name');
    this.tables = [...rows.map((r) => `public.${r.table_name as string}`), 'graphile_worker._private_jobs'];
    const quoted = (t: string) => t.split('.').map((p) => `"${p}"`).join('.');
    this.sql = `select ${this.tables.map((t, i) => `(select count(*) from ${quoted(t)})::int as c${i}`).join(', ')}`;
    await this.client.connect();
  }

  async close(): Promise<void> {
    await this.client.end();
  }

  async take(): Promise<number[]> {
    this.snapshots += 1;
    const started = performance.now();
    const { rows } = await this.client.query({ name: 'row_counts', text: this.sql });
    this.milliseconds += performance.now() - started;
    return this.tables.map((_, i) => Number(rows[0][`c${i}`]));
  }

  /** The tables whose counts differ, as "table: before -> after". */
  changes(before: number[], after: number[]): string[] {
    return this.tables.flatMap((t, i) => (before[i] === after[i] ? [] : [`${t}: ${before[i]} -> ${after[i]}`]));
  }
}

export interface Exchange<R> {
  request: R;
  status: number;
}

/**
 * Runs requests and proves that none refused (4xx) changed a row count. `expectRefusal` says whether the request is
 * sure to be refused before any handler runs (the operation's own validators refuse it): those run in batches
 * between two snapshots; the others run between snapshots of their own.
 */
export class WriteGuard<R> {
  private base: number[] = [];
  private batch: R[] = [];
  private succeededInBatch = false;

  constructor(private readonly counts: RowCounts, private readonly send: (request: R) => Promise<number>,
    private readonly fail: (request: R, status: number, changes: string[]) => void) {}

  async start(): Promise<void> {
    this.base = await this.counts.take();
  }

  async run(request: R, expectRefusal: boolean): Promise<number> {
    if (!expectRefusal) {
      await this.flush();
      const status = await this.send(request);
      const after = await this.counts.take();
      if (status >= 400) this.check(request, status, this.base, after);
      this.base = after;
      return status;
    }
    const status = await this.send(request);
    if (status >= 400) this.batch.push(request);
    else this.succeededInBatch = true;
    return status;
  }

  /** Closes the batch: unchanged counts prove it; changed ones are replayed request by request. */
  async flush(): Promise<void> {
    if (!this.batch.length && !this.succeededInBatch) return;
    const now = await this.counts.take();
    const changes = this.counts.changes(this.base, now);
    const { batch, succeededInBatch } = this;
    this.batch = [];
    this.succeededInBatch = false;
    this.base = now;
    if (!changes.length) return;
    const failuresBefore = this.failures;
    for (const request of batch) await this.run(request, false);
    // Without a success in the batch, only a refused request can have written, even if its replay did not.
    if (!succeededInBatch && this.failures === failuresBefore && batch.length) {
      this.fail(batch[0], 400, [...changes, `(somewhere in a batch of ${batch.length} refused requests; not reproduced one by one)`]);
    }
  }

  private failures = 0;

  private check(request: R, status: number, before: number[], after: number[]): void {
    const changes = this.counts.changes(before, after);
    if (!changes.length) return;
    this.failures += 1;
    this.fail(request, status, changes);
  }
}
