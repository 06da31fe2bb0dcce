import type { Handler } from '../../generated/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';

/** GET /people/{id}: the person in the official client's { data } envelope (a merged person's row is gone: 404).
 * Written, not plain: a plain retrieve answers the resource itself, not inside an envelope. */
export const retrievePerson: Handler<'retrievePerson'> = async ({ path }, ctx) => {
  const row = await loadOwned(ctx, resources.Person, path.id, ['people:read']);
  return { data: resources.Person.view(row) };
};
