// Review fields only code can say (spec/areas/reviews.yaml table.columns), from the review's statement.
import type { ReviewAttachment } from '../../generated/types.js';
import type { ReviewRow } from '../../generated/rows.js';
import { downloadUrl } from '../files/index.js';

/** The attached files (`$attachments`: id, filename, content_type, visibility each), with their download links. */
export function attachmentsOf(row: ReviewRow): ReviewAttachment[] {
  const files = (row.$attachments ?? []) as { id: string; filename: string; content_type: string; visibility: string }[];
  return files.map((f) => ({ id: f.id, content_type: f.content_type, filename: f.filename, url: downloadUrl(f) }));
}
