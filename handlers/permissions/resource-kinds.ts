// The kinds of resource an access question may name (GET /permissions, GET /users/{id}/access/{resource_id}). Each
// kind is one declared entry: its id prefix, its table (rows with id and account_id) and who its customers are; a
// resource answers for the account that owns it. Apps plug in with one entry (prefix app_, table apps) once their
// table exists.
import type { Knex } from 'knex';
import { notFound } from '../../runtime/errors.js';

/** Who reaches a resource as a customer: holders of an access-granting membership of one of `productIds`
 * (undefined: of any of the account's products), or anyone when it is public. */
export interface Customers { productIds?: string[]; isPublic?: boolean }

export interface ResourceKind {
  prefix: string;
  noun: string;
  table: string;
  /** the column naming the owning account (the account itself: id) */
  accountColumn?: string;
  /** a timestamp column: set means the resource no longer exists */
  softDelete?: string;
  customers?: (db: Knex, row: { id: string }) => Promise<Customers>;
}

export const RESOURCE_KINDS: readonly ResourceKind[] = [
  { prefix: 'biz_', noun: 'account', table: 'accounts', accountColumn: 'id' },
  { prefix: 'prod_', noun: 'product', table: 'products', softDelete: 'deleted_at', customers: async (_db, row) => ({ productIds: [row.id] }) },
  {
    prefix: 'exp_',
    noun: 'experience',
    table: 'experiences',
    softDelete: 'deleted_at',
    customers: async (db, row) => {
      const products = await db('experience_products as ep').join('products as p', 'p.id', 'ep.product_id')
        .where('ep.experience_id', row.id).whereNull('p.deleted_at').pluck('p.id');
      const { is_public } = await db('experiences').where({ id: row.id }).first('is_public');
      return { productIds: products, isPublic: is_public };
    },
  },
];

export interface ResolvedResource { kind: ResourceKind; id: string; accountId: string }

/** The resource and its owning account; 404 (naming the kind) for an unknown id or an id of no declared kind. */
export async function resolveResource(db: Knex, resourceId: string, param: string): Promise<ResolvedResource> {
  const kind = RESOURCE_KINDS.find((k) => resourceId.startsWith(k.prefix));
  if (!kind) throw notFound('resource', resourceId, param);
  const q = db(kind.table).where({ id: resourceId }).first({ accountId: kind.accountColumn ?? 'account_id' });
  if (kind.softDelete) q.whereNull(kind.softDelete);
  const row = await q;
  if (!row) throw notFound(kind.noun, resourceId, param);
  return { kind, id: resourceId, accountId: row.accountId };
}

/** Who the resource's customers are (an account's: holders of any of its products). */
export async function customersOf(db: Knex, resource: ResolvedResource): Promise<Customers> {
  return resource.kind.customers ? resource.kind.customers(db, { id: resource.id }) : {};
}
