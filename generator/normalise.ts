// Expands field shorthand ("string", "timestamp?") into FieldSpec objects.
import type { FieldSpec, RawField } from './spec-types.js';

export function normaliseField(raw: RawField): FieldSpec {
  if (typeof raw === 'string') {
    const nullable = raw.endsWith('?');
    return { type: (nullable ? raw.slice(0, -1) : raw) as FieldSpec['type'], ...(nullable ? { nullable } : {}) };
  }
  const out: FieldSpec = { ...raw };
  if (raw.fields) out.fields = normaliseFields(raw.fields);
  if (raw.items) out.items = normaliseField(raw.items);
  if (raw.of) out.of = normaliseField(raw.of);
  return out;
}

export function normaliseFields(raw: Record<string, RawField> | undefined): Record<string, FieldSpec> {
  const out: Record<string, FieldSpec> = {};
  for (const [k, v] of Object.entries(raw ?? {})) out[k] = normaliseField(v);
  return out;
}
