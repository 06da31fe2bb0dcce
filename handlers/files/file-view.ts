// A files row as the File resource. object, visibility, created_at, size and url stay null until the file is
// ready (the seed's File); the upload destination is shown only by POST /files, to the caller that will upload.
import type { File } from '../../generated/types.js';
import { downloadUrl, uploadUrl } from './file-links.js';

/** Every file may hold up to this; a declared size lowers it for that file. */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;

export interface FileRow {
  id: string;
  filename: string;
  content_type: string;
  visibility: 'public' | 'private';
  status: 'pending' | 'ready';
  part_count: number;
  declared_size: number | null;
  size: number | null;
  storage_key: string | null;
  upload_expires_at: string;
  ready_at: string | null;
}

export const maxSizeOf = (row: FileRow): number => row.declared_size ?? MAX_FILE_BYTES;

/** Whether the row's upload window has closed without its bytes: at real time, as its signed link (createFile.ts). */
export const uploadWindowClosed = (row: FileRow, now = Date.now()): boolean =>
  row.status === 'pending' && Date.parse(row.upload_expires_at) <= now;

export function fileView(row: FileRow, options: { destination?: boolean } = {}): File {
  const ready = row.status === 'ready';
  const destination = options.destination && row.status === 'pending';
  const single = row.part_count === 1;
  return {
    id: row.id,
    object: ready ? 'file' : null,
    filename: row.filename,
    content_type: row.content_type,
    status: uploadWindowClosed(row) ? 'failed' : row.status,
    visibility: ready ? row.visibility : null,
    size: ready ? row.size : null,
    url: ready ? downloadUrl(row) : null,
    parts: row.part_count,
    max_size: maxSizeOf(row),
    upload_url: destination && single ? uploadUrl(row.id, 1, row.upload_expires_at) : null,
    upload_headers: destination ? { 'Content-Type': row.content_type } : null,
    upload_parts: destination && !single
      ? Array.from({ length: row.part_count }, (_, i) => ({ part_number: i + 1, upload_url: uploadUrl(row.id, i + 1, row.upload_expires_at) }))
      : null,
    upload_expires_at: row.upload_expires_at,
    created_at: ready ? row.ready_at : null,
  };
}
