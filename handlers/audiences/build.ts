// The build_audience job: the sandbox ad network builds an audience created pending (handlers/audiences/
// build-model.ts holds the rules). A list without a file was sized at creation and is ready at once; a file list is
// read once per run and matched in batches of BATCH_ROWS, each batch one transaction that locks the audience and
// moves processed_rows, so a run cut short resumes where the last commit left it, and a run after the build changes
// nothing.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { fileStorage } from '../../runtime/file-storage.js';
import { nowMs } from '../shared/now.js';
import { BATCH_ROWS, identifierOf, matches, networkAudienceId, type Identifiers } from './build-model.js';
import { parseCsv } from './csv-rows.js';
import type { AudienceRow } from '../../generated/rows.js';

export const BUILD_AUDIENCE = 'build_audience';

export const buildJob = (audienceId: string) =>
  [BUILD_AUDIENCE, { audience_id: audienceId }, { jobKey: `${BUILD_AUDIENCE}:${audienceId}` }] as const;

const building = (db: Knex, id: string) =>
  db('audiences').where({ id }).whereIn('status', ['pending', 'processing']).whereNull('deleted_at').forUpdate().first();

async function readText(db: Knex, key: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of fileStorage(db).read(key)) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/** The file's data rows as identifiers, or why the network cannot read it. */
async function listRows(db: Knex, audience: Pick<AudienceRow, 'file_id' | 'column_mapping'>): Promise<Identifiers[] | string> {
  const file = await db('files').where({ id: audience.file_id }).first('storage_key');
  let records: string[][];
  try {
    records = parseCsv(await readText(db, file.storage_key));
  } catch (e) {
    return `The file cannot be read as CSV: ${(e as Error).message}`;
  }
  const header = (records[0] ?? []).map((h) => h.trim().toLowerCase());
  // a customer list is made with its file and its mapping (createAudience.ts)
  const mapping = audience.column_mapping!;
  const index: Record<string, number> = {};
  for (const [key, column] of Object.entries(mapping)) {
    if (!column) continue;
    index[key] = header.indexOf(column.trim().toLowerCase());
    if (index[key] === -1) return `column_mapping.${key} names '${column}', which is not in the file's header`;
  }
  const at = (r: string[], key: string) => (index[key] === undefined ? null : r[index[key]!] ?? null);
  return records.slice(1).map((r) => ({ email: at(r, 'email'), phone: at(r, 'phone') }));
}

const finish = (db: Knex, id: string, columns: Record<string, unknown>) =>
  db('audiences').where({ id }).update({ ...columns, updated_at: nowMs(db) });

/** `maxBatches` stops a run early, as a process dying between two commits would (tests). */
export async function buildAudience(db: Knex, id: string, maxBatches = Infinity): Promise<void> {
  const audience = await db('audiences').where({ id }).whereIn('status', ['pending', 'processing']).whereNull('deleted_at').first();
  if (!audience) return;
  if (!audience.file_id) {
    await db.transaction(async (trx) => {
      const a = await building(trx, id);
      if (!a) return;
      // The members list is matched by the platform itself: every member is a row, and every row matches.
      const rows = a.source_type === 'customer_list' ? Number(a.size) : 0;
      await finish(trx, id, { status: 'ready', total_rows: rows, processed_rows: rows, usable_rows: rows, matched_rows: rows,
        platform_audience_id: networkAudienceId(id) });
    });
    return;
  }
  const rows = await listRows(db, audience);
  for (let more = true, batches = 0; more && batches < maxBatches; batches++) {
    more = await db.transaction(async (trx) => {
      const a = await building(trx, id);
      if (!a) return false;
      if (typeof rows === 'string') {
        await finish(trx, id, { status: 'failed', error_message: rows });
        return false;
      }
      const from = Number(a.processed_rows);
      const batch = rows.slice(from, from + BATCH_ROWS);
      const identifiers = batch.map(identifierOf).filter((x): x is string => x !== null);
      const processed = from + batch.length;
      const usable = Number(a.usable_rows) + identifiers.length;
      const matched = Number(a.matched_rows) + identifiers.filter(matches).length;
      const counts = { total_rows: rows.length, processed_rows: processed, usable_rows: usable, matched_rows: matched };
      if (processed < rows.length) {
        await finish(trx, id, { status: 'processing', ...counts });
        return true;
      }
      if (usable === 0) {
        await finish(trx, id, { status: 'failed', error_message: 'No row has a usable email or phone', ...counts });
        return false;
      }
      await finish(trx, id, { status: usable < processed ? 'partial' : 'ready', size: matched, ...counts,
        platform_audience_id: networkAudienceId(id) });
      return false;
    });
  }
}

export function audienceTasks(db: Knex): Record<string, Task> {
  return { [BUILD_AUDIENCE]: async (payload) => buildAudience(db, (payload as { audience_id: string }).audience_id) };
}
