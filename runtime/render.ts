// Renders a newest-shape resource at an older version, outside any request (webhook payloads, jobs).
import { versionOn } from './versions.js';
import { api } from './api-definition.js';

export function renderAt<T>(schema: string, object: T, version: string): unknown {
  const resolved = versionOn(version);
  if (!resolved) throw new Error(`${version} is before the first API version`);
  const down = api().downgraders[schema]?.[resolved];
  // Transformers mutate; the caller's object must stay the newest shape.
  return down ? down(structuredClone(object)) : object;
}
