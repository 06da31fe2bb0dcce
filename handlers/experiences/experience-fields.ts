// Experience fields only code can say (spec/areas/experiences.yaml table.columns), from the experience's statement.
import type { ExperienceImage } from '../../generated/types.js';
import type { ExperienceRow } from '../../generated/rows.js';
import { downloadUrl } from '../files/index.js';

/** The logo's link (`$image`: the logo file's id, filename and visibility, null without one), signed anew at each read. */
export function imageOf(row: ExperienceRow): ExperienceImage | null {
  const file = row.$image as { id: string; filename: string; visibility: string } | null;
  return file ? { url: downloadUrl(file) } : null;
}
