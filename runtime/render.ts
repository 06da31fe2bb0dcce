// Renders a newest-shape resource at an older version, outside any request (webhook payloads, jobs).
import { versionOn } from './versions.js';
import { api } from './api-definition.js';

export function renderAt<T>(schema: string, object: T, version: string): unknown {
  const resolved = versionOn(version);
  if (!resolved) throw new Error(`${version} is before the first API version`);
  const down = api().downgraders[schema]?.[resolved];
  // Transformers mutate; the caller's object must stay the newest shape.
  return down ? withoutUnsetFields(down(structuredClone(object))) : object;
}

/** The downgraders unset a field the older shape lacks rather than delete it (generator/emit-transformers.ts: a
 * request's serialiser leaves it out, and an object keeps its fast properties). An object rendered here is handed on
 * as it is, so it loses them: it has exactly the older shape's fields. */
function withoutUnsetFields(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (const item of value) withoutUnsetFields(item);
  } else if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const key of Object.keys(o)) {
      if (o[key] === undefined) delete o[key];
      else withoutUnsetFields(o[key]);
    }
  }
  return value;
}
