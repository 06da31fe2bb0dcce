// v2's page/per over a Current keyset list: walk the list by its cursors in chunks of its largest page, keep the
// requested window, and count on to the end for total_page. A request costs ceil(items walked / max page size)
// Current list calls, each one keyset page; items walked are bounded by the map's max_listed_items, past which
// a page is refused (400 naming `page`) and total_page counts only the reachable items.
import { invalid } from '../errors.js';

export interface V2PageArgs {
  page: number;
  per: number;
}

export interface CursorPage {
  data: unknown[];
  page_info: { end_cursor: string | null; has_next_page: boolean };
}

function positiveInteger(value: unknown, name: string, max: number, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' || !/^\d{1,9}$/.test(text) || Number(text) < 1 || Number(text) > max) {
    throw invalid(`${name} must be a whole number from 1 to ${max}, not '${String(text)}'`, name);
  }
  return Number(text);
}

export function pageArgs(query: Record<string, unknown>, defaultPer: number, maxPer: number, maxItems: number): V2PageArgs {
  const per = positiveInteger(query.per, 'per', maxPer, defaultPer);
  const page = positiveInteger(query.page, 'page', Math.max(1, Math.ceil(maxItems / per)), 1);
  return { page, per };
}

export async function walkPages(
  fetchChunk: (first: number, after: string | null) => Promise<CursorPage>,
  { page, per }: V2PageArgs,
  chunkSize: number,
  maxItems: number,
): Promise<{ data: unknown[]; pagination: { current_page: number; total_page: number } }> {
  const skip = (page - 1) * per;
  const data: unknown[] = [];
  let seen = 0;
  let after: string | null = null;
  for (;;) {
    const chunk = await fetchChunk(Math.min(chunkSize, maxItems - seen), after);
    for (const item of chunk.data) {
      if (seen >= skip && seen < skip + per) data.push(item);
      seen += 1;
    }
    if (!chunk.page_info.has_next_page || !chunk.page_info.end_cursor || seen >= maxItems) break;
    after = chunk.page_info.end_cursor;
  }
  return { data, pagination: { current_page: page, total_page: Math.max(1, Math.ceil(seen / per)) } };
}
