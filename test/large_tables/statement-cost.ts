// What a statement the product runs costs, for the large-table cases that are not a list's page (page-plans.ts is
// for those): the statements made while `work` runs are recorded from the pg driver (shared by knex and the runtime),
// the one matching a pattern is run again under EXPLAIN (ANALYZE, BUFFERS), and its rows read are counted per table.
import pg from 'pg';
import * as assert from 'uvu/assert';
import type { Knex } from 'knex';

export type Recorded = { text: string; values: unknown[] };

export interface StatementCost {
  text: string;
  plan: string;
  nodes: string[];
  buffers: number;
  /** rows each table's scans returned or removed by a filter, over all their loops */
  rowsRead: Record<string, number>;
}

/** Runs `work` with the driver's statements recorded; returns its result and the statements. */
export async function recorded<T>(work: () => Promise<T>): Promise<{ result: T; statements: Recorded[] }> {
  const statements: Recorded[] = [];
  const original = pg.Client.prototype.query as any;
  (pg.Client.prototype as any).query = function (this: pg.Client, config: any, values?: any, cb?: any) {
    const text = typeof config === 'string' ? config : config?.text;
    const vals = typeof config === 'string' ? values : config?.values;
    if (typeof text === 'string') statements.push({ text, values: Array.isArray(vals) ? vals : [] });
    return original.call(this, config, values, cb);
  };
  try {
    return { result: await work(), statements };
  } finally {
    (pg.Client.prototype as any).query = original;
  }
}

/** The first recorded statement matching `pattern`, explained with ANALYZE and BUFFERS (run in a rolled-back
 * transaction, so a write is measured without being made twice; `setup` prepares that transaction as the product's
 * was, a sandbox clock's settings for instance). */
export async function costOf(db: Knex, statements: Recorded[], pattern: RegExp, setup?: (trx: Knex.Transaction) => Promise<void>): Promise<StatementCost> {
  const matching = statements.filter((s) => pattern.test(s.text));
  assert.ok(matching.length >= 1, `a statement matching ${pattern}: ${statements.map((s) => s.text.slice(0, 80)).join(' | ')}`);
  return explainStatement(db, matching[0]!, setup);
}

/** One statement as the driver sent it, explained (see costOf). */
export async function explainStatement(db: Knex, { text, values }: Recorded, setup?: (trx: Knex.Transaction) => Promise<void>): Promise<StatementCost> {
  let explained: any;
  await db.transaction(async (trx) => {
    await setup?.(trx);
    const sql = text.replace(/\?/g, '\\?').replace(/\$(\d+)/g, '?');
    const { rows } = await trx.raw(`explain (analyze, buffers, format json) ${sql}`, positional(text, values) as Knex.RawBinding[]);
    explained = rows[0]['QUERY PLAN'][0];
    await trx.rollback();
  }).catch((e) => { if (!explained) throw e; });
  const nodes: string[] = [];
  const rowsRead: Record<string, number> = {};
  const walk = (n: any) => {
    nodes.push(`${n['Node Type']}${n['Relation Name'] ? ` on ${n['Relation Name']}` : ''}${n['Index Name'] ? ` using ${n['Index Name']}` : ''}`);
    const table = n['Relation Name'];
    if (table) rowsRead[table] = (rowsRead[table] ?? 0) + (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0)) * (n['Actual Loops'] ?? 1);
    for (const c of n.Plans ?? []) walk(c);
  };
  walk(explained.Plan);
  return { text, plan: nodes.join(' > '), nodes, buffers: explained.Plan['Shared Hit Blocks'] + explained.Plan['Shared Read Blocks'], rowsRead };
}

/** $n placeholders become knex's positional ones, in order of appearance (a $n used twice binds its value twice). */
function positional(text: string, values: unknown[]): unknown[] {
  return [...text.matchAll(/\$(\d+)/g)].map((m) => values[Number(m[1]) - 1]);
}

/** No sequential scan of `table` in the plan, nor a bitmap scan unless `bitmap` (a bitmap scan reads every row its
 * index condition matches before any order or limit: fine when the condition is the scope, an account's due rows). */
export function assertIndexed(cost: StatementCost, table: string, o: { bitmap?: boolean } = {}): void {
  const whole = new RegExp(`^(Seq Scan${o.bitmap ? '' : '|Bitmap Heap Scan'}) on ${table}$`);
  assert.not.ok(cost.nodes.some((n) => whole.test(n)), `scans ${table} whole: ${cost.plan}`);
}

export const reportCost = (name: string, cost: StatementCost) => {
  if (process.env.LARGE_TABLE_REPORT) console.log(JSON.stringify({ name, plan: cost.plan, buffers: cost.buffers, rowsRead: cost.rowsRead }));
};
