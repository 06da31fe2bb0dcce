// The expire_exports job (hourly): completed exports 30 days after completed_at become expired and their CSV is
// deleted (the files row in the transaction, its bytes after it commits), unless the account used the file elsewhere.
// `now` is a parameter so that tests move the clock; it is the clock context's time otherwise. Only exports of accounts
// in the current clock scope (handlers/shared/sweep-scope.ts): the cron takes those at real time, a sandbox clock's
// advance its accounts' at each due instant (exportRetentionSweep). Each export is locked and re-read, so a second run
// finds nothing to do.
import type { Knex } from 'knex';
import type { ClockSweep } from '../../runtime/clock-advance.js';
import { clockNow } from '../../runtime/clock.js';
import { isoOrNull, sweepScope } from '../shared/sweep-scope.js';
import { transition } from '../../generated/state-machine.js';
import { fileStorage } from '../../runtime/file-storage.js';

export const EXPIRE_EXPORTS = 'expire_exports';
export const EXPORT_RETENTION_DAYS = 30;
const RETENTION_MS = EXPORT_RETENTION_DAYS * 24 * 60 * 60 * 1000;

/** Expires what is due at `now`; the ids expired. */
export async function expireExports(db: Knex, now = clockNow()): Promise<string[]> {
  const due = new Date(now.getTime() - RETENTION_MS).toISOString();
  const scope = sweepScope('exports.account_id');
  const candidates: { id: string }[] = await db('exports').where({ status: 'completed' }).where('completed_at', '<=', due)
    .whereRaw(scope.sql, scope.bindings).select('id');
  const expired: string[] = [];
  for (const { id } of candidates) {
    const key = await db.transaction(async (trx) => {
      const row = await trx('exports').where({ id }).forUpdate().first();
      if (!row || row.status !== 'completed' || row.completed_at > due) return undefined;
      await trx('exports').where({ id }).update({
        status: transition('Export', row.status, 'expire'), file_id: null, expired_at: now.toISOString(), updated_at: now.toISOString(),
      });
      return row.file_id ? deleteUnlessUsed(trx, row.file_id) : null;
    });
    if (key === undefined) continue;
    if (key) await fileStorage(db).remove(key);
    expired.push(id);
  }
  return expired;
}

/** When the next export in scope expires: the earliest completion among those kept, plus the retention. */
export async function nextExpiryAt(db: Knex): Promise<string | null> {
  const scope = sweepScope('exports.account_id');
  const row = await db('exports').where({ status: 'completed' }).whereRaw(scope.sql, scope.bindings).min('completed_at as first').first();
  return row?.first ? new Date(Date.parse(isoOrNull(row.first)!) + RETENTION_MS).toISOString() : null;
}

export const exportRetentionSweep: ClockSweep = {
  name: EXPIRE_EXPORTS,
  nextDueAt: nextExpiryAt,
  run: async (db) => { await expireExports(db); },
};

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Deletes the export's file, unless the account has since used it elsewhere (a CSV export is a customer list an
 * audience may be built from, and any file may be an attachment): a file another row references is theirs now and
 * stays. The database's foreign keys decide, at the moment of the delete, so a use committed at the same time counts.
 * The storage key of the file deleted, or null when it stays.
 */
async function deleteUnlessUsed(trx: Knex.Transaction, fileId: string): Promise<string | null> {
  try {
    return await trx.transaction(async (savepoint) => {
      const [file] = await savepoint('files').where({ id: fileId }).delete().returning('storage_key');
      return (file?.storage_key as string | undefined) ?? null;
    });
  } catch (e) {
    if ((e as { code?: string }).code === FOREIGN_KEY_VIOLATION) return null;
    throw e;
  }
}
