// Written by hand, not declared plain: File is no stored resource (no table:; its view signs URLs, file-view.ts), the row is the caller's own file by its owner columns (file-owner.ts), and its parts are assembled in file storage before the move.
import type { Handler } from '../../generated/handler.js';
import { invalid, ApiError } from '../../runtime/errors.js';
import { randomToken } from '../../runtime/ids.js';
import { fileStorage } from '../../runtime/file-storage.js';
import { transition } from '../../generated/state-machine.js';
import { nowMs } from '../shared/now.js';
import { loadOwnFile } from './file-owner.js';
import { fileView, maxSizeOf, uploadWindowClosed, type FileRow } from './file-view.js';
import { deleteObjectsAfterCommit } from './file-objects.js';

const notCompletable = (message: string, param: string) => new ApiError(400, 'invalid_state', message, param);

/** POST /files/{id}/complete: every part present and within the size, assembled; the file is then ready. */
export const completeFile: Handler<'completeFile'> = async ({ path }, ctx) => {
  const file = await loadOwnFile(ctx, path.id, true);
  const status = transition('File', file.status, 'store');
  if (file.part_count === 1) throw notCompletable('A single upload is ready once its bytes are PUT; only multipart uploads are completed', 'parts');
  if (uploadWindowClosed(file)) throw notCompletable(`The upload window closed at ${file.upload_expires_at}; create the file again`, 'upload_expires_at');
  const parts: { part_number: number; size: number; storage_key: string }[] =
    await ctx.db('file_parts').where({ file_id: file.id }).orderBy('part_number');
  const received = new Set(parts.map((p) => p.part_number));
  const missing = Array.from({ length: file.part_count }, (_, i) => i + 1).filter((n) => !received.has(n));
  if (missing.length) throw invalid(`Parts not uploaded yet: ${missing.join(', ')} (of ${file.part_count})`, 'parts');
  const total = parts.reduce((sum, p) => sum + p.size, 0);
  if (total > maxSizeOf(file) || (file.declared_size !== null && total !== file.declared_size)) {
    throw invalid(`The parts add up to ${total} bytes; the file takes ${file.declared_size ?? `at most ${maxSizeOf(file)}`}`, 'size');
  }
  const key = `${file.id}-${randomToken(12)}`;
  const size = await fileStorage(ctx.db).concat(parts.map((p) => p.storage_key), key);
  const [row] = await ctx.db('files').where({ id: file.id })
    .update({ status, size, storage_key: key, ready_at: nowMs(ctx.db), updated_at: nowMs(ctx.db) }).returning('*');
  await ctx.db('file_parts').where({ file_id: file.id }).delete();
  await deleteObjectsAfterCommit(ctx.db, parts.map((p) => p.storage_key));
  return fileView(row as FileRow);
};
