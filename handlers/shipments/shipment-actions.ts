// The rule of PATCH /shipments/{id} (a plain action, spec/areas/shipments.yaml): the runtime resolves a payment's id
// to its shipment's (the path's alias), finds and locks the shipment (shipment:update) and answers it as it then is.
import type { ActionHook } from '../../generated/plain-hooks.js';
import { nowMs } from '../shared/now.js';
import { carrierFor } from './carriers.js';

/** A new tracking number, with the carrier sent or recognised from it; the same number and carrier write nothing. */
export const retrack: ActionHook<'updateShipment'> = async (shipment, { body }, ctx) => {
  const trackingNumber = body.tracking_number.toUpperCase();
  const carrier = carrierFor(trackingNumber, body.carrier);
  if (trackingNumber === shipment.tracking_number && carrier === shipment.carrier) return { unchanged: true };
  await ctx.db('shipments').where({ id: shipment.id }).update({ tracking_number: trackingNumber, carrier, updated_at: nowMs(ctx.db) });
};
