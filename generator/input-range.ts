// The numeric range an input field is validated against, shared by the schemas (./json-schema.ts) and the rules that
// require one (./input-rules.ts): its own module so that neither of those two imports the other.
import type { FieldSpec, Storage } from './spec-types.js';

/** The integers a column of each type holds, as JSON numbers: int8 only to 2^53-1, past which a double (what
 * JSON.parse gives) no longer tells neighbouring integers apart. */
export const STORAGE_RANGE: Record<Storage, readonly [number, number]> = {
  int2: [-32768, 32767],
  int4: [-2147483648, 2147483647],
  int8: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** The bounds a number field is validated against: its own min and max, else its storage's. */
export function rangeOf(f: FieldSpec): { min?: number; max?: number } {
  const [low, high] = f.storage ? STORAGE_RANGE[f.storage] : [undefined, undefined];
  return { min: f.min ?? low, max: f.max ?? high };
}
