// The products an experience is attached to: only products of the experience's own account, never deleted ones.
import type { Knex } from 'knex';
import { notFound } from '../../runtime/errors.js';

/** The live product of the account, or a 404 naming product_id (another account's product is not leaked). */
export async function productOfAccount(db: Knex, accountId: string, productId: string): Promise<string> {
  const product = await db('products').where({ id: productId, account_id: accountId }).whereNull('deleted_at').first('id');
  if (!product) throw notFound('product', productId, 'product_id');
  return product.id;
}

/** Attaches; whether it was not attached before. */
export async function attach(db: Knex, experienceId: string, productId: string): Promise<boolean> {
  const added = await db('experience_products').insert({ experience_id: experienceId, product_id: productId })
    .onConflict(['experience_id', 'product_id']).ignore().returning('product_id');
  return added.length > 0;
}
