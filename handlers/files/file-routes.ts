// The byte routes of files, outside /api/v1: no Authorization, the signed link is the credential
// (runtime/signed-urls.ts). PUT /uploads/{file}/{part} takes the raw bytes of a single upload (part 1) or of one part
// of a multipart upload; GET /downloads/{file}/{name} serves a ready file (a private one only with a valid
// signature). A refused upload leaves nothing: the bytes go to a temporary object renamed into place when complete
// (runtime/file-storage.ts), and the row changes only in the transaction that accepts them.
import type { Knex } from 'knex';
import type { Context } from 'koa';
import { ApiError, invalid } from '../../runtime/errors.js';
import { answerJson } from '../../runtime/pipeline/json-answer.js';
import { randomToken } from '../../runtime/ids.js';
import { fileStorage, StorageLimitExceeded } from '../../runtime/file-storage.js';
import { checkSignature } from '../../runtime/signed-urls.js';
import type { ExtraRoute } from '../../runtime/app.js';
import { nowMs } from '../shared/now.js';
import { downloadPath, uploadPath } from './file-links.js';
import { maxSizeOf, uploadWindowClosed, type FileRow } from './file-view.js';
import { deleteObjectsAfterCommit } from './file-objects.js';

const noSuchFile = () => new ApiError(404, 'not_found', 'No such file, or not at this link');

function requireSignature(path: string, query: Context['query']): void {
  const check = checkSignature(path, query);
  if (check === 'invalid') throw new ApiError(403, 'permission_denied', 'The link\'s signature is missing or does not match; use the URL as it was given');
  if (check === 'expired') throw new ApiError(403, 'permission_denied', 'The link has expired; ask for a new one');
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, 'invalid_request', `The upload is larger than the file takes (${limit} bytes)`, 'size');
}

/** A pending file still open for uploads, or the 4xx saying why not. */
function requireOpen(file: FileRow | undefined, part: number): FileRow {
  if (!file || part > file.part_count) throw noSuchFile();
  if (file.status !== 'pending') throw new ApiError(409, 'conflict', 'This file is already uploaded');
  if (uploadWindowClosed(file)) throw new ApiError(403, 'permission_denied', `The upload window closed at ${file.upload_expires_at}`);
  return file;
}

async function upload(ctx: Context, db: Knex): Promise<void> {
  const id = String(ctx.params.id);
  const part = /^[1-9]\d{0,2}$/.test(ctx.params.part ?? '') ? Number(ctx.params.part) : NaN;
  if (!Number.isInteger(part)) throw noSuchFile();
  requireSignature(uploadPath(id, part), ctx.query);
  const file = requireOpen(await db('files').where({ id }).first(), part);
  const limit = maxSizeOf(file);
  const announced = Number(ctx.get('Content-Length') || NaN);
  if (announced > limit) throw tooLarge(limit);

  const storage = fileStorage(db);
  const key = `${id}-${part}-${randomToken(12)}`;
  let size: number;
  try {
    size = await storage.put(key, ctx.req, limit);
  } catch (e) {
    if (e instanceof StorageLimitExceeded) throw tooLarge(limit);
    throw e;
  }
  try {
    await db.transaction(async (trx) => {
      // Locked and read again: the window may have closed, or another upload finished, while the bytes arrived.
      const locked = requireOpen(await trx('files').where({ id }).forUpdate().first(), part);
      if (locked.part_count > 1) {
        const previous = await trx('file_parts').where({ file_id: id, part_number: part }).first('storage_key');
        await trx('file_parts').insert({ file_id: id, part_number: part, size, storage_key: key })
          .onConflict(['file_id', 'part_number']).merge({ size, storage_key: key, updated_at: nowMs(trx) });
        if (previous) await deleteObjectsAfterCommit(trx, [previous.storage_key]);
        return;
      }
      if (locked.declared_size !== null && size !== locked.declared_size) {
        throw invalid(`The upload has ${size} bytes; the file declared ${locked.declared_size}`, 'size');
      }
      await trx('files').where({ id })
        .update({ status: 'ready', size, storage_key: key, ready_at: nowMs(trx), updated_at: nowMs(trx) });
    });
  } catch (e) {
    await storage.remove(key);
    throw e;
  }
  ctx.status = 200;
  answerJson(ctx, { id, part, size });
}

async function download(ctx: Context, db: Knex): Promise<void> {
  const id = String(ctx.params.id);
  const file: FileRow | undefined = await db('files').where({ id, status: 'ready' }).first();
  if (!file) throw noSuchFile();
  if (file.visibility !== 'public') requireSignature(downloadPath(id), ctx.query);
  ctx.set('Content-Type', file.content_type);
  ctx.set('Content-Length', String(file.size));
  ctx.set('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`);
  ctx.set('Cache-Control', file.visibility === 'public' ? 'public, max-age=300' : 'private, no-store');
  ctx.body = fileStorage(db).read(file.storage_key!);
}

export const fileRoutes: ExtraRoute[] = [
  { method: 'PUT', path: '/uploads/:id/:part', handle: upload },
  { method: 'GET', path: '/downloads/:id/:name', handle: download },
];
