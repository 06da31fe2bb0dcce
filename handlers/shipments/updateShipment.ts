import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { carrierFor } from './carriers.js';
import { findShipment } from './find-shipment.js';

/** PATCH /shipments/{id}: a new tracking number, with the carrier sent or recognised from it. */
export const updateShipment: Handler<'updateShipment'> = async ({ path, body }, ctx) => {
  const shipment = await findShipment(ctx, path.id, 'shipment:update', { lock: true });
  const trackingNumber = body.tracking_number.toUpperCase();
  const carrier = carrierFor(trackingNumber, body.carrier);
  if (trackingNumber === shipment.tracking_number && carrier === shipment.carrier) return resources.Shipment.view(shipment);
  const [row] = await ctx.db('shipments').where({ id: shipment.id })
    .update({ tracking_number: trackingNumber, carrier, updated_at: nowMs(ctx.db) }).returning('*');
  const view = resources.Shipment.view(row);
  await ctx.emit('shipment.updated', row.account_id, view);
  return view;
};
