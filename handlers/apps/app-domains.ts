// The hostnames serving a hosted app (app_domains): one active, and the previous routes' hostnames, which stay the
// app's and redirect to the active one. A hostname belongs to one app for good, so an old link never reaches
// another app.
import type { Knex } from 'knex';
import { conflict } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { nowMs } from '../shared/now.js';
import { hostnameOf } from './app-rules.js';

/** Makes route's hostname the app's active one: the active one becomes previous; a former one of this app is
 * reactivated; a hostname of another app is a 409. The app row is locked by the caller. */
export async function serveAppAt(db: Knex, app: { id: string; account_id: string }, route: string): Promise<void> {
  const hostname = hostnameOf(route);
  const taken = await db('app_domains').where({ hostname }).first('id', 'app_id', 'status');
  if (taken && taken.app_id !== app.id) throw conflict(`The route '${route}' is taken by another app`, 'route');
  if (taken?.status === 'active') return;
  await db('app_domains').where({ app_id: app.id, status: 'active' }).update({ status: 'previous', updated_at: nowMs(db) });
  if (taken) {
    await db('app_domains').where({ id: taken.id }).update({ status: 'active', updated_at: nowMs(db) });
    return;
  }
  // A concurrent request claiming the same hostname loses on the unique index: a 409, not a 500.
  const inserted = await db('app_domains')
    .insert({ id: newId('dom_'), account_id: app.account_id, app_id: app.id, hostname, status: 'active' })
    .onConflict('hostname').ignore().returning('id');
  if (!inserted.length) throw conflict(`The route '${route}' is taken by another app`, 'route');
}
