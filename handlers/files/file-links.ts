// The links of a file: where its bytes are PUT (signed until the upload window closes) and where a ready file is
// downloaded (a public file's link is permanent; a private file's is signed for an hour, signed anew at each read).
// Both are routes outside /api/v1 (handlers/files/file-routes.ts): the signature is the credential.
import { signPath } from '../../runtime/signed-urls.js';
import { publicBaseUrl } from '../shared/public-url.js';

export const DOWNLOAD_LINK_SECONDS = 60 * 60;

export const uploadPath = (fileId: string, part: number): string => `/uploads/${fileId}/${part}`;
export const downloadPath = (fileId: string): string => `/downloads/${fileId}`;

export function uploadUrl(fileId: string, part: number, expiresAt: string): string {
  return `${publicBaseUrl()}${signPath(uploadPath(fileId, part), new Date(expiresAt))}`;
}

/** The download link of a ready file; `filename` ends the path so that browsers save it under its name. */
export function downloadUrl(file: { id: string; filename: string; visibility: string }, now = Date.now()): string {
  const path = downloadPath(file.id);
  const name = `/${encodeURIComponent(file.filename)}`;
  if (file.visibility === 'public') return `${publicBaseUrl()}${path}${name}`;
  const signed = signPath(path, new Date(now + DOWNLOAD_LINK_SECONDS * 1000));
  const [, query] = signed.split('?');
  return `${publicBaseUrl()}${path}${name}?${query}`;
}
