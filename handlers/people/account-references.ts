import type { Knex } from 'knex';
import { invalid } from '../../runtime/errors.js';
import { query } from '../../runtime/request-db.js';

const TABLES = { payment_id: ['payments', 'payment'], product_id: ['products', 'product'], plan_id: ['plans', 'variant'] } as const;
type Reference = keyof typeof TABLES;

/** The ids an event names must be the account's own (one statement for all of them); else a 400 naming the field:
 * an id of another account reads like an unknown one, so nothing about it leaks. */
export async function requireAccountsOwn(db: Knex, accountId: string, refs: Partial<Record<Reference, string>>): Promise<void> {
  const named = (Object.keys(TABLES) as Reference[]).filter((k) => refs[k] !== undefined);
  if (!named.length) return;
  const checks = named.map((k, i) => `exists (select 1 from ${TABLES[k][0]} where id = $${i + 2} and account_id = $1) as ${k}`);
  const [found] = await query<Record<Reference, boolean>>(db, `select ${checks.join(', ')}`, [accountId, ...named.map((k) => refs[k])]);
  for (const k of named) if (!found![k]) throw invalid(`No such ${TABLES[k][1]} of account ${accountId}: '${refs[k]}'`, k);
}
