// The generate_export job: pending -> processing -> completed. The account's rows are read in keyset batches
// (EXPORT_BATCH_ROWS, default 500, on the (account_id, created_at, id) index), rendered at the export's version and
// streamed through the CSV writer (csv-columns.ts) into the file store, so memory holds one batch whatever the
// table's size. The file and the export's completion are written in one transaction that first locks and re-reads
// the export: a job run twice, or after the export moved on, writes nothing (its stray object is removed).
import type { Knex } from 'knex';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { newId, randomToken } from '../../runtime/ids.js';
import { fileStorage } from '../../runtime/file-storage.js';
import { effectsOn } from '../../generated/effects.js';
import { transition } from '../../generated/state-machine.js';
import { readView, selectRows, type Row } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { exportable, type ExportableName } from './exportable.js';
import { columnsAt, csvRecord, csvWriter } from './csv-columns.js';

export const GENERATE_EXPORT = 'generate_export';

/** An export is at most this large (the files' own limit does not apply to what the platform writes). */
const MAX_EXPORT_BYTES = 20 * 1024 * 1024 * 1024;

export const generateExportJob = (exportId: string) =>
  [GENERATE_EXPORT, { export_id: exportId }, { jobKey: `${GENERATE_EXPORT}:${exportId}` }] as const;

const batchRows = (): number => Number(process.env.EXPORT_BATCH_ROWS ?? 500);

/** The account's live rows of the resource, oldest first, a batch at a time; the next batch is asked for while the
 * current one is written, so the database and the CSV work overlap (two batches in memory at most). */
async function* rowsOf(db: Knex, resource: ExportableName, accountId: string): AsyncGenerator<Row> {
  const { stored } = exportable[resource];
  const t = stored.table;
  const size = batchRows();
  const batchAfter = (last: Row | null): Promise<Row[]> => {
    const q = selectRows(db, stored).where(`${t}.account_id`, accountId)
      .orderBy([{ column: `${t}.created_at`, order: 'asc' }, { column: `${t}.id`, order: 'asc' }]).limit(size);
    if (last) q.whereRaw(`(${t}.created_at, ${t}.id) > (?, ?)`, [last.created_at, last.id]);
    // then() sends it now: a knex builder runs only when awaited.
    return q.then((rows: Row[]) => rows);
  };
  let pending = batchAfter(null);
  try {
    for (;;) {
      const batch = await pending;
      if (batch.length === size) pending = batchAfter(batch[batch.length - 1]);
      for (const row of batch) yield row;
      if (batch.length < size) return;
    }
  } finally {
    // A writer that stopped early (an error downstream) leaves the next batch unread: its failure is not news.
    pending.catch(() => {});
  }
}

/** Claims the export (pending, or processing after a worker died mid-way): the row as it now is, or null. */
async function claim(db: Knex, id: string): Promise<Row | null> {
  return db.transaction(async (trx) => {
    const row = await trx('exports').where({ id }).forUpdate().first();
    if (!row || (row.status !== 'pending' && row.status !== 'processing')) return null;
    if (row.status === 'processing') return row;
    const [claimed] = await trx('exports').where({ id })
      .update({ status: transition('Export', row.status, 'start'), started_at: nowMs(trx), updated_at: nowMs(trx) }).returning('*');
    return claimed;
  });
}

export async function generateExport(db: Knex, id: string): Promise<void> {
  const job = await claim(db, id);
  if (!job) return;
  const resource = job.resource as ExportableName;
  const { schema, stored } = exportable[resource];
  const columns = columnsAt(schema, job.api_version);
  const storage = fileStorage(db);
  const key = `${id}-${randomToken(12)}`;
  let rowCount = 0;
  const csv = csvWriter(columns);
  const records = Readable.from((async function* () {
    for await (const row of rowsOf(db, resource, job.account_id)) {
      rowCount++;
      yield csvRecord(schema, stored.view(row), job.api_version, columns);
    }
  })());
  const [, size] = await Promise.all([pipeline(records, csv), storage.put(key, csv, MAX_EXPORT_BYTES)]);

  const finished = await db.transaction(async (trx) => {
    const row = await trx('exports').where({ id }).forUpdate().first();
    if (!row || row.status !== 'processing') return false;
    const [file] = await trx('files').insert({
      id: newId('file_'), owner_account_id: row.account_id, filename: `${resource}-${id}.csv`, content_type: 'text/csv',
      visibility: 'private', status: 'ready', part_count: 1, size, storage_key: key,
      upload_expires_at: nowMs(trx), ready_at: nowMs(trx),
    }).returning('id');
    await trx('exports').where({ id }).update({
      status: transition('Export', row.status, 'finish'), file_id: file.id, row_count: rowCount,
      completed_at: nowMs(trx), updated_at: nowMs(trx),
    });
    await effectsOn(trx).emit('export.completed', row.account_id, await readView(trx, resources.Export, id));
    return true;
  });
  if (!finished) await storage.remove(key);
}
