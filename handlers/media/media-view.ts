// MediaAsset fields only code can say (spec/areas/media.yaml columns: code), and the file each type is stored as.
import type { MediaAssetRow } from '../../generated/rows.js';
import { downloadUrl } from '../files/index.js';

/** What the simulated generator writes: an image is a PNG, a video an MP4 (H.264). */
export const MEDIA_FORMATS = {
  image: { contentType: 'image/png', extension: 'png' },
  video: { contentType: 'video/mp4', extension: 'mp4' },
} as const;

export type MediaType = keyof typeof MEDIA_FORMATS;

export const mediaFilename = (asset: { id: string; type: MediaType }): string =>
  `${asset.id}.${MEDIA_FORMATS[asset.type].extension}`;

/** A completed generation's file: public, so its link is permanent. */
export function mediaUrl(row: MediaAssetRow): string | null {
  if (row.status !== 'completed' || !row.file_id) return null;
  return downloadUrl({ id: row.file_id, filename: mediaFilename({ id: row.id, type: row.type }), visibility: 'public' });
}
