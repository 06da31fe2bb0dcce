// A Current result in the v2 shape: each resource rendered at the map's render version (the pre-versioning model),
// lists in v2's { data, pagination } envelope.
import type { Knex } from 'knex';
import { renderAt } from '../render.js';
import { fillHiddenAt } from '../plain/hidden-fields.js';
import type { V2Route, V2Settings } from './route.js';

export function renderV2(route: V2Route, settings: V2Settings, result: any): unknown {
  const { shape, schema } = route.render;
  const one = (item: unknown) => (schema ? renderAt(schema, item, settings.renderVersion) : item);
  if (shape === 'object') return one(result);
  if (shape === 'list' || shape === 'data') {
    // A list the Current API returns whole (no cursors) is one v2 page.
    const pagination = result.pagination ?? { current_page: 1, total_page: 1 };
    return { data: (result.data as unknown[]).map(one), pagination };
  }
  return result;
}

/** Fields the head hides that the render version shows (field_hidden) are read for the result's objects first. */
export async function fillForV2(db: Knex, route: V2Route, settings: V2Settings, result: any): Promise<void> {
  const { shape, schema } = route.render;
  if (!schema || result === null || typeof result !== 'object') return;
  const objects = shape === 'object' ? [result] : shape === 'list' || shape === 'data' ? result.data ?? [] : [];
  await fillHiddenAt(db, schema, settings.renderVersion, objects);
}
