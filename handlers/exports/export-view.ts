// Export fields only code can say (spec/areas/exports.yaml columns: code).
import type { ExportRow } from '../../generated/rows.js';
import { downloadUrl as fileDownloadUrl } from '../files/index.js';

/** A completed export's CSV: its file's private link, signed anew at each read. */
export function downloadUrl(row: ExportRow): string | null {
  if (row.status !== 'completed' || !row.file_id) return null;
  return fileDownloadUrl({ id: row.file_id, filename: `${row.resource}-${row.id}.csv`, visibility: 'private' });
}
