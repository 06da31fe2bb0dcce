// Written by hand, not declared plain: a file of the caller (user or account) answered with its signed upload destination.
import type { Handler } from '../../generated/handler.js';
import { newId } from '../../runtime/ids.js';
import { contentTypeOf } from './content-types.js';
import { ownerColumns } from './file-owner.js';
import { fileView, type FileRow } from './file-view.js';

/** How long an upload's URLs work: FILE_UPLOAD_SECONDS, default an hour. */
const uploadWindowMs = (): number => Number(process.env.FILE_UPLOAD_SECONDS ?? 3600) * 1000;

/** POST /files: a pending file of the caller's, answered with its signed destination. */
export const createFile: Handler<'createFile'> = async ({ body }, ctx) => {
  const [row] = await ctx.db('files').insert({
    id: newId('file_'),
    ...ownerColumns(ctx),
    filename: body.filename,
    content_type: body.content_type ?? contentTypeOf(body.filename),
    visibility: body.visibility ?? 'private',
    status: 'pending',
    part_count: body.parts ?? 1,
    declared_size: body.size ?? null,
    // Real time even on a sandbox clock: the window is the life of the signed upload link, which the client uses (and
    // runtime/signed-urls.ts checks) at the wall's time.
    upload_expires_at: ctx.db.raw(`date_trunc('milliseconds', pg_catalog.now()) + ? * interval '1 millisecond'`, [uploadWindowMs()]),
  }).returning('*');
  return fileView(row as FileRow, { destination: true });
};
