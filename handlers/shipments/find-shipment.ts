// /shipments/{id} takes a shipment's id or its payment's id (one shipment per payment). Either way the shipment is
// read through the declared resource and its account's visibility and scopes (404/403, runtime/ownership.ts).
import type { HandlerContext } from '../../generated/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { notFound } from '../../runtime/errors.js';
import type { ShipmentRow } from '../../generated/rows.js';
import { resources } from '../../generated/resources.js';

export async function findShipment(ctx: HandlerContext, id: string, scope: string, options: { lock?: boolean } = {}): Promise<ShipmentRow> {
  let shipmentId = id;
  if (id.startsWith('pay_')) {
    const found = await ctx.db('shipments').where({ payment_id: id }).first('id');
    // the same answer as an unknown shipment id: whether another account's payment exists is not told
    if (!found) throw notFound('shipment', id, 'id');
    shipmentId = found.id;
  }
  return loadOwned(ctx, resources.Shipment, shipmentId, [scope], { forUpdate: options.lock });
}
