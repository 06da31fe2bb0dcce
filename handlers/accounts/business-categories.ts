// Business categories are rows of a table; only current slugs of the right kind may be written.
import type { Knex } from 'knex';
import { invalid } from '../../runtime/errors.js';

export async function checkCategory(db: Knex, kind: 'business_type' | 'industry_type', slug: string | null): Promise<void> {
  if (slug === null) return;
  const row = await db('business_categories').where({ slug, kind }).whereNull('replaced_by').first('slug');
  if (!row) {
    const known = await db('business_categories').where({ kind }).whereNull('replaced_by').orderBy('slug').pluck('slug');
    throw invalid(`Unknown ${kind} '${slug}'; use one of: ${known.join(', ')}`, kind);
  }
}
