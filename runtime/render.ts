// Renders a newest-shape resource at an older version, outside any request (webhook payloads, jobs).
import { downgraders } from '../generated/transformers.js';
import { versionOn } from './versions.js';

export function renderAt<T>(schema: string, object: T, version: string): unknown {
  const resolved = versionOn(version);
  if (!resolved) throw new Error(`${version} is before the first API version`);
  const down = downgraders[schema]?.[resolved];
  // Transformers mutate; the caller's object must stay the newest shape.
  return down ? down(structuredClone(object)) : object;
}
