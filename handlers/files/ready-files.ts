// Another area's request naming files (an app build's artifact, a verification's answer, a case step's attachments):
// each must be a ready file of the caller. One error for every such place: a 400 invalid_request naming the field
// that sent the id. Another caller's file does not exist for this one (as GET /files/{id} says); one still
// uploading must be finished first.
import type { HandlerContext } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { ownerColumns } from './file-owner.js';
import type { FileRow } from './file-view.js';

/** The caller's ready files sent at `refs` (each an id and the field it came in), read in one statement; the first
 * that is not one is refused. */
export async function readyFiles(ctx: HandlerContext, refs: readonly { id: string; field: string }[]): Promise<Map<string, FileRow>> {
  if (refs.length === 0) return new Map();
  const rows: FileRow[] = await ctx.db('files').whereIn('id', [...new Set(refs.map((r) => r.id))]).where(ownerColumns(ctx));
  const byId = new Map(rows.map((f) => [f.id, f]));
  for (const { id, field } of refs) {
    const file = byId.get(id);
    if (!file) throw invalid(`No such file of yours: '${id}'. Upload it (POST /files) and finish it first`, field);
    if (file.status !== 'ready') throw invalid(`The file ${id} is not uploaded yet: upload its bytes (and complete a multipart upload) first`, field);
  }
  return byId;
}

/** The caller's ready file `id`, sent at `field`. */
export async function readyFile(ctx: HandlerContext, id: string, field: string): Promise<FileRow> {
  return (await readyFiles(ctx, [{ id, field }])).get(id)!;
}
