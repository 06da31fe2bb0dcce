// The generate_media job: asks the media generator (media-generator-port.ts) outside any transaction, stores the
// bytes through the file storage, then in one transaction (the asset locked, and only while still pending) records
// the file and charges the held price, or gives it back when the generator refused. A re-run after it finished does
// nothing; a file written by a run that lost the race is removed.
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { Readable } from 'node:stream';
import { effectsOn } from '../../generated/effects.js';
import { fileStorage } from '../../runtime/file-storage.js';
import { newId, randomToken } from '../../runtime/ids.js';
import { readView } from '../../runtime/plain/stored-resource.js';
import { transition } from '../../generated/state-machine.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { mediaGenerator, type Resolution } from './media-generator-port.js';
import { postMediaPrice } from './media-ledger.js';
import { MEDIA_FORMATS, mediaFilename, type MediaType } from './media-view.js';

export const GENERATE_MEDIA = 'generate_media';

export const generateMediaJob = (assetId: string) =>
  [GENERATE_MEDIA, { media_id: assetId }, { jobKey: `${GENERATE_MEDIA}:${assetId}` }] as const;

export async function generateMediaAsset(db: Knex, id: string): Promise<void> {
  const asset = await db('media_assets').where({ id }).first();
  if (!asset || asset.status !== 'pending') return;
  const outcome = await mediaGenerator().render({
    type: asset.type, prompt: asset.prompt, resolution: asset.resolution as Resolution, duration_seconds: asset.duration_seconds,
  });
  const bytes = 'made' in outcome ? outcome.made : null;
  const storage = fileStorage(db);
  const key = bytes ? `${id}-${randomToken(12)}` : null;
  if (bytes && key) await storage.put(key, Readable.from([bytes]), bytes.length);

  const finished = await db.transaction(async (trx) => {
    const row = await trx('media_assets').where({ id }).forUpdate().first();
    if (!row || row.status !== 'pending') return false;
    if (bytes && key) {
      const [file] = await trx('files').insert({
        id: newId('file_'), owner_account_id: row.account_id, filename: mediaFilename(row),
        content_type: MEDIA_FORMATS[row.type as MediaType].contentType,
        visibility: 'public', status: 'ready', part_count: 1, size: bytes.length, storage_key: key,
        upload_expires_at: nowMs(trx), ready_at: nowMs(trx),
      }).returning('id');
      await trx('media_assets').where({ id }).update({
        status: transition('MediaAsset', row.status, 'complete'), file_id: file.id, completed_at: nowMs(trx), updated_at: nowMs(trx),
      });
      await postMediaPrice(trx, row, 'charged');
      await effectsOn(trx).emit('media.completed', row.account_id, await readView(trx, resources.MediaAsset, id));
    } else {
      await trx('media_assets').where({ id }).update({
        status: transition('MediaAsset', row.status, 'fail'), failure_reason: 'generator_refused', failed_at: nowMs(trx), updated_at: nowMs(trx),
      });
      await postMediaPrice(trx, row, 'released');
      await effectsOn(trx).emit('media.failed', row.account_id, await readView(trx, resources.MediaAsset, id));
    }
    return true;
  });
  if (!finished && key) await storage.remove(key);
}

export const mediaTasks = (db: Knex): Record<string, Task> => ({
  [GENERATE_MEDIA]: async (payload) => generateMediaAsset(db, (payload as { media_id: string }).media_id),
});
