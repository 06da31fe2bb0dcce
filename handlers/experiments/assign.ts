// Deterministic variant assignment (spec/areas/experiments.yaml): the first 8 bytes of
// SHA-256("<experiment id>:<subject kind>:<subject id>") as an unsigned 64-bit integer, modulo the sum of the weights,
// falls in one variant's cumulative weight range. BigInt keeps it exact: no float ever decides a bucket.
import { createHash } from 'node:crypto';

export interface Variant { key: string; weight: number }

export function assignVariant(experimentId: string, subjectType: string, subjectId: string, variants: readonly Variant[]): string {
  const digest = createHash('sha256').update(`${experimentId}:${subjectType}:${subjectId}`).digest();
  const total = variants.reduce((sum, v) => sum + BigInt(v.weight), 0n);
  let point = digest.readBigUInt64BE(0) % total;
  for (const v of variants) {
    const w = BigInt(v.weight);
    if (point < w) return v.key;
    point -= w;
  }
  throw new Error('unreachable: point is below the total weight');
}
