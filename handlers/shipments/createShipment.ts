// Written by hand, not declared plain: locks the payment, checks its state and links it to the shipment (another table).
import type { Handler } from '../../generated/handler.js';
import { ApiError, conflict } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { requireOwned } from '../../runtime/ownership.js';
import { readRow } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { isUniqueViolation } from '../accounts/index.js';
import { nowMs } from '../shared/now.js';
import { carrierFor } from './carriers.js';

// A shipment is for goods paid for (or held for capture); anything else has nothing to ship yet, or no longer.
const SHIPPABLE = new Set(['authorized', 'succeeded', 'partially_refunded']);
const oneShipmentPerPayment = (paymentId: string) =>
  conflict(`Payment ${paymentId} already has a shipment; change its tracking number with PATCH /shipments/${paymentId}`, 'payment_id');

/** POST /shipments: the runtime has checked shipment:create on account_id; the payment must be that account's. */
export const createShipment: Handler<'createShipment'> = async ({ body }, ctx) => {
  // Locked: concurrent creates for one payment are ordered here (the unique index settles any that slip past).
  const payment = await readRow(ctx.db, resources.Payment, body.payment_id, 'lock');
  const owned = payment?.account_id === body.account_id ? payment : undefined;
  await requireOwned(ctx.access, owned as { account_id: string } | undefined, [],
    { noun: 'payment', id: body.payment_id, param: 'payment_id' });
  if (!SHIPPABLE.has(String(payment!.status))) {
    throw new ApiError(400, 'invalid_state',
      `Payment ${body.payment_id} is ${payment!.status}; only authorized, succeeded or partially refunded payments can be shipped`, 'payment_id');
  }
  if (payment!.shipment_id) throw oneShipmentPerPayment(body.payment_id);
  const trackingNumber = body.tracking_number.toUpperCase();
  const carrier = carrierFor(trackingNumber, body.carrier);
  let row;
  try {
    [row] = await ctx.db('shipments').insert({
      id: newId('ship_'), account_id: body.account_id, payment_id: body.payment_id, user_id: payment!.user_id ?? null,
      order_id: body.order_id ?? null, tracking_number: trackingNumber, carrier,
    }).returning('*');
  } catch (e) {
    if (isUniqueViolation(e, 'shipments_payment_id_unique')) throw oneShipmentPerPayment(body.payment_id);
    throw e;
  }
  await ctx.db('payments').where({ id: body.payment_id }).update({ shipment_id: row.id, updated_at: nowMs(ctx.db) });
  const view = resources.Shipment.view(row);
  await ctx.emit('shipment.created', body.account_id, view);
  return view;
};
