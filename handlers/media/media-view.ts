// MediaAsset fields only code can say (spec/areas/media.yaml columns: code).
import type { Row } from '../../runtime/plain/stored-resource.js';
import { downloadUrl } from '../files/file-links.js';

export const mediaFilename = (id: string): string => `${id}.png`;

/** A completed generation's file: public, so its link is permanent. */
export function mediaUrl(row: Row): string | null {
  if (row.status !== 'completed' || !row.file_id) return null;
  return downloadUrl({ id: row.file_id, filename: mediaFilename(row.id), visibility: 'public' });
}
