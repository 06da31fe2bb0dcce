// Account metadata: merged key by key on update, where a null value removes the key (and means nothing on create).
import type { Metadata } from '../../generated/types.js';

export function mergeMetadata(stored: Metadata, changes: Metadata): Metadata {
  const out: Metadata = { ...stored };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out;
}
