// A subscription's side-by-side window (POST /webhooks/{id}/side_by_side): until it ends, each event is delivered at
// the pin and at a second version (delivery/dispatch-event-task.ts makes the two deliveries). A window past its
// until has ended, keeping the pin: the view shows none (spec/areas/webhooks.yaml), the dispatch makes one delivery
// and clears it.
import type { Knex } from 'knex';

/** The longest window: a move is rehearsed, not run at two versions for good. */
export const MAX_SIDE_BY_SIDE_DAYS = 30;

export interface SideBySide { version: string }

/** The subscription's window if it is open now (at the database's clock, as the view compares), else null. */
export async function openWindow(db: Knex, webhookId: string): Promise<SideBySide | null> {
  const row = await db('webhooks').where({ id: webhookId }).where('side_by_side_until', '>', db.fn.now())
    .first(db.raw("to_char(side_by_side_version, 'YYYY-MM-DD') as version"));
  return row?.version ? { version: row.version } : null;
}

/** A window that has passed its until ends by itself, keeping the pin. */
export async function clearEndedWindow(db: Knex, webhookId: string): Promise<void> {
  await db('webhooks').where({ id: webhookId }).where('side_by_side_until', '<=', db.fn.now())
    .update({ side_by_side_version: null, side_by_side_until: null });
}
