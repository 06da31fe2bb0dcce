// products rows (joined with their account's title and route) -> the Product resource.
import type { Knex } from 'knex';
import type { Product } from '../../generated/types.js';
import type { Row } from './catalogue-access.js';

/** products with the owning account's title and route, as productView reads them. */
export const productsWithAccount = (db: Knex): Knex.QueryBuilder =>
  db('products').join('accounts', 'accounts.id', 'products.account_id')
    .select('products.*', 'accounts.title as account_title', 'accounts.route as account_route');

export function productView(row: Row): Product {
  return {
    id: row.id,
    account: { id: row.account_id, title: row.account_title, route: row.account_route },
    title: row.title,
    description: row.description,
    visibility: row.visibility,
    includes_license: row.includes_license,
    metadata: row.metadata,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A product row after a write, re-read with its account. */
export async function loadProductView(db: Knex, id: string): Promise<Product> {
  return productView(await productsWithAccount(db).where('products.id', id).first());
}
