// An ad's creatives: files of the files area (migrations/300), stored on the ad as { id, crop, format } and shown
// with the file's media type and download link (spec/areas/ads.yaml reads the files row with the ad's own statement).
import type { Knex } from 'knex';
import type { Ad } from '../../generated/types.js';
import type { AdRow } from '../../generated/rows.js';
import { invalid } from '../../runtime/errors.js';
import { downloadUrl } from '../files/index.js';

export interface CreativeInput {
  id: string;
  crop?: { x: number; y: number; width: number; height: number } | null;
  format?: 'square' | 'vertical' | 'horizontal' | null;
}

/** Fractions that add to 1 in decimal may exceed it by a rounding error in binary (0.45 + 0.55). */
const EPSILON = 1e-9;

const mediaTypeOf = (contentType: string | null | undefined): 'image' | 'video' | null =>
  contentType?.startsWith('image/') ? 'image' : contentType?.startsWith('video/') ? 'video' : null;

/** A creative as the ad's statement reads it (spec/areas/ads.yaml creatives.sql): the stored one and its file's
 * columns (null when the file is gone). */
interface JoinedCreative {
  id: string;
  crop: Ad['creatives'][number]['crop'] | null;
  format: Ad['creatives'][number]['format'] | null;
  content_type: string | null;
  filename: string | null;
  visibility: string | null;
}

/** The view of the ad's creatives from the ad statement's join of their files. */
export function creativesOf(row: AdRow): Ad['creatives'] {
  const stored = (row.$creatives ?? []) as JoinedCreative[];
  return stored.map((c) => ({
    id: c.id, crop: c.crop ?? null, format: c.format ?? null, media_type: mediaTypeOf(c.content_type),
    url: c.filename ? downloadUrl({ id: c.id, filename: c.filename, visibility: c.visibility! }) : null,
  }));
}

/** Each creative is a ready image or video of the account, its crop inside the media. Returns the column's JSON. */
export async function checkCreatives(db: Knex, accountId: string, creatives: CreativeInput[]): Promise<string> {
  const ids = [...new Set(creatives.map((c) => c.id))];
  const files = ids.length === 0 ? []
    : await db('files').whereIn('id', ids).where({ owner_account_id: accountId }).select('id', 'status', 'content_type');
  creatives.forEach((c, i) => {
    const file = files.find((f) => f.id === c.id);
    if (!file) throw invalid(`No such file on this account: '${c.id}'`, `creatives.${i}.id`);
    if (file.status !== 'ready') throw invalid(`File '${c.id}' is not ready: upload its bytes first`, `creatives.${i}.id`);
    if (!mediaTypeOf(file.content_type)) throw invalid(`File '${c.id}' is ${file.content_type}, not an image or video`, `creatives.${i}.id`);
    if (c.crop && (c.crop.x + c.crop.width > 1 + EPSILON || c.crop.y + c.crop.height > 1 + EPSILON)) {
      throw invalid('The crop reaches past the media (x + width and y + height are at most 1)', `creatives.${i}.crop`);
    }
  });
  return JSON.stringify(creatives.map((c) => ({ id: c.id, crop: c.crop ?? null, format: c.format ?? null })));
}
