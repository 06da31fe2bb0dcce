// What generated views (generated/resources.ts) use to turn column values into field values beyond the type
// parsers of runtime/db.ts: numeric columns arrive as strings, dates as Date objects.
import { formatDate } from '../auth.js';

/** A number field from a numeric column (a string from pg), or null. */
export const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** A date field (YYYY-MM-DD) from a date column, or null. */
export const day = (value: Date | string | null): string | null => (value ? formatDate(value) : null);
