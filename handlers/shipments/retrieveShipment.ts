import type { Handler } from '../../generated/handler.js';
import { resources } from '../../generated/resources.js';
import { findShipment } from './find-shipment.js';

/** GET /shipments/{id}: by the shipment's id or its payment's id. */
export const retrieveShipment: Handler<'retrieveShipment'> = async ({ path }, ctx) =>
  resources.Shipment.view(await findShipment(ctx, path.id, 'shipment:basic:read'));
