// Metadata (a flat map of keys to scalars): merged key by key on update, where a null value removes the key, and
// taken without its null keys on create (where a null means nothing).

/** Metadata as the spec's Metadata schema has it (the generated type is the same). */
export type Metadata = Record<string, string | number | boolean | null>;

export function mergeMetadata(stored: Metadata, changes: Metadata): Metadata {
  const out: Metadata = { ...stored };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out;
}

/** Keys sent with a null value are dropped on create. */
export function dropNulls(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(metadata ?? {}).filter(([, v]) => v !== null));
}
