// Rules that read and then write ("the first one becomes the default", "one per owner", "at most N") hold only if two
// requests cannot both read before either writes. A transaction-scoped advisory lock on what the rule is about (the
// owner, the parent) makes such requests take turns: the second reads after the first commits or rolls back. It
// blocks nothing else, unlike a row lock on the parent (FOR UPDATE there would also wait for every insert that
// references the parent row).
import type { Knex } from 'knex';
import { query } from './request-db.js';

/** Holds, until the request's transaction ends, the lock of `rule` for `key` (waiting for another holder first). */
export async function serializeRule(db: Knex, rule: string, key: string): Promise<void> {
  await query(db, 'select pg_advisory_xact_lock(hashtextextended($1, 35)) as locked', [`${rule}:${key}`]);
}
