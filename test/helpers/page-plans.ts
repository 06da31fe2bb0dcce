// What a list's page costs in the database: the statements the in-process server runs are recorded while a request
// is made (pg's Client is shared by knex and the runtime), and the one that read the listed table's page is run
// again under EXPLAIN (ANALYZE, BUFFERS). Used by the large-table tests.
import pg from 'pg';
import * as assert from 'uvu/assert';
import type { TestApp, RequestOptions, TestResponse } from './harness.js';

type Recorded = { text: string; values: unknown[]; name?: string };
let recording: Recorded[] | null = null;
const originalQuery: (this: pg.Client, ...args: any[]) => Promise<any> = pg.Client.prototype.query as any;

/** Starts recording statements; stopRecordingStatements() undoes it (a test file's after). */
export function recordStatements(): void {
  (pg.Client.prototype as any).query = function (this: pg.Client, config: any, values?: any, cb?: any) {
    if (recording && config) {
      const text = typeof config === 'string' ? config : config.text;
      const vals = typeof config === 'string' ? values : config.values;
      const name = typeof config === 'string' ? undefined : config.name;
      if (typeof text === 'string') recording.push({ text, values: Array.isArray(vals) ? vals : [], ...(name ? { name } : {}) });
    }
    return (originalQuery as any).call(this, config, values, cb);
  };
}

export function stopRecordingStatements(): void {
  (pg.Client.prototype as any).query = originalQuery;
}

export interface PagePlan {
  res: TestResponse;
  plan: string;
  buffers: number;
  /** rows of the listed table the page's scans returned or removed by a filter */
  scanned: number;
  nodes: string[];
  /** a Sort above a read of the listed table (one inside a per-row lookup of another table is not the page's) */
  sortsTable: boolean;
  /** a Sort whose input is not cut short by a Limit below it: it sorts every matching row, not a page per branch */
  sortsUnbounded: boolean;
  /** the page's statement as the server sent it */
  statement: Recorded;
}

/** Runs the request, then EXPLAIN ANALYZE of the statement that read `table`'s page (one with a limit). */
export async function pagePlan(app: TestApp, method: string, path: string, options: RequestOptions, table: string, expectStatus = 200): Promise<PagePlan> {
  recording = [];
  const res = await app.request(method, path, options);
  const seen = recording;
  recording = null;
  assert.is(res.status, expectStatus, JSON.stringify(res.body));
  // (An older pin's hidden field is read by its own statement for the page's ids, `select "<table>"."id", (select ...`:
  // a lookup of rows already found, not a page read.)
  const reads = seen.filter((s) => /^\s*[(]?\s*(select|with)\b/i.test(s.text) && new RegExp(`from "?${table}"?[\\s)]`, 'i').test(s.text) && /\blimit\b/i.test(s.text)
    && !new RegExp(`^\\s*select "${table}"\\."id", \\(select`, 'i').test(s.text));
  assert.is(reads.length, 1, `one page read of ${table}: ${seen.map((s) => s.text.slice(0, 80)).join(' | ')}`);
  if (process.env.LARGE_TABLE_REPORT === 'sql') console.log(reads[0]!.text, JSON.stringify(reads[0]!.values));
  const client = await (app.db.client as any).acquireConnection();
  try {
    const [{ 'QUERY PLAN': [explained] }] = (await originalQuery.call(client, { text: `explain (analyze, buffers, format json) ${reads[0]!.text}`, values: reads[0]!.values } as any) as any).rows;
    const nodes: string[] = [];
    let scanned = 0;
    let sortsTable = false;
    let sortsUnbounded = false;
    // Returns whether the node's subtree reads the listed table, and whether it does so under a Limit.
    const walk = (n: any): { reads: boolean; limited: boolean } => {
      nodes.push(`${n['Node Type']}${n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}${n['Index Name'] ? ` using ${n['Index Name']}` : ''}`);
      if (n['Relation Name'] === table) scanned += n['Actual Rows'] * (n['Actual Loops'] ?? 1) + (n['Rows Removed by Filter'] ?? 0);
      let reads = n['Relation Name'] === table;
      let limited = true;
      for (const c of n.Plans ?? []) {
        const below = walk(c);
        reads = below.reads || reads;
        if (below.reads && !below.limited) limited = false;
      }
      if (n['Relation Name'] === table) limited = false;
      if (n['Node Type'] === 'Sort' && reads) {
        sortsTable = true;
        if (!limited) sortsUnbounded = true;
      }
      if (n['Node Type'] === 'Limit' && reads) limited = true;
      return { reads, limited };
    };
    walk(explained.Plan);
    const buffers = explained.Plan['Shared Hit Blocks'] + explained.Plan['Shared Read Blocks'];
    return { res, plan: nodes.join(' > '), buffers, scanned, nodes, sortsTable, sortsUnbounded, statement: reads[0]! };
  } finally {
    await (app.db.client as any).releaseConnection(client);
  }
}

/** The scans and sorts of `statement`'s plan (EXPLAIN, not run) with `dropped` indexes gone, in a transaction rolled
 * back: what the planner could do without them. */
export async function planWithout(app: TestApp, statement: Recorded, dropped: string[]): Promise<string[]> {
  const client = await (app.db.client as any).acquireConnection();
  try {
    await originalQuery.call(client, 'begin');
    for (const index of dropped) await originalQuery.call(client, `drop index ${index}`);
    const [{ 'QUERY PLAN': [explained] }] = (await originalQuery.call(client, { text: `explain (format json) ${statement.text}`, values: statement.values } as any) as any).rows;
    const nodes: string[] = [];
    const walk = (n: any) => {
      nodes.push(`${n['Node Type']}${n['Index Name'] ? ` using ${n['Index Name']}` : ''}`);
      for (const c of n.Plans ?? []) walk(c);
    };
    walk(explained.Plan);
    return nodes;
  } finally {
    await originalQuery.call(client, 'rollback');
    await (app.db.client as any).releaseConnection(client);
  }
}

export interface PreparedPlan {
  /** how PostgreSQL planned `executions` runs of the statement prepared on one connection (pg_prepared_statements) */
  genericPlans: number;
  customPlans: number;
  /** the generic plan's scans, run (EXPLAIN ANALYZE EXECUTE under force_generic_plan) */
  nodes: string[];
  /** rows of `table` the generic plan's scans returned or removed by a filter */
  scanned: number;
}

/** `statement` prepared on a fresh session of the pool, run `executions` times as the server runs it, then its generic
 * plan run under EXPLAIN ANALYZE: what a connection that kept the plan does for these values. */
let preparedCount = 0;
export async function preparedPlan(app: TestApp, statement: Recorded, table: string, executions = 8): Promise<PreparedPlan> {
  const client = await (app.db.client as any).acquireConnection();
  const name = `test_prepared_${++preparedCount}`;
  try {
    for (let i = 0; i < executions; i++) await originalQuery.call(client, { name, text: statement.text, values: statement.values } as any);
    const [counts] = (await originalQuery.call(client, { text: 'select generic_plans, custom_plans from pg_prepared_statements where name = $1', values: [name] } as any) as any).rows;
    await originalQuery.call(client, 'begin');
    await originalQuery.call(client, 'set local plan_cache_mode = force_generic_plan');
    const literals = statement.values.map((v) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`));
    await originalQuery.call(client, `prepare ${name}_g as ${statement.text}`);
    const [{ 'QUERY PLAN': [explained] }] = (await originalQuery.call(client, `explain (analyze, format json) execute ${name}_g(${literals.join(', ')})`) as any).rows;
    const nodes: string[] = [];
    let scanned = 0;
    const walk = (n: any) => {
      nodes.push(`${n['Node Type']}${n['Index Name'] ? ` using ${n['Index Name']}` : ''}`);
      if (n['Relation Name'] === table) scanned += n['Actual Rows'] * (n['Actual Loops'] ?? 1) + (n['Rows Removed by Filter'] ?? 0);
      for (const c of n.Plans ?? []) walk(c);
    };
    walk(explained.Plan);
    return { genericPlans: Number(counts.generic_plans), customPlans: Number(counts.custom_plans), nodes, scanned };
  } finally {
    await originalQuery.call(client, 'rollback');
    // Only this helper's own: pg's client remembers the server's statements prepared on this connection.
    for (const prepared of [name, `${name}_g`]) await originalQuery.call(client, `deallocate ${prepared}`).catch(() => undefined);
    await (app.db.client as any).releaseConnection(client);
  }
}

/** The statements the in-process server sent for one request (recordStatements must be on). */
export async function statementsOf(app: TestApp, method: string, path: string, options: RequestOptions): Promise<{ res: TestResponse; statements: Recorded[] }> {
  recording = [];
  try {
    const res = await app.request(method, path, options);
    return { res, statements: recording };
  } finally {
    recording = null;
  }
}
