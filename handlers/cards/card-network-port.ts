// What the cards area (the issuer) asks of a card network once it has approved a purchase: to carry it on. The
// network then reports whether the merchant captured it (settled) or released it (reversed) through
// card-network-outcomes.ts, where this area moves the transaction and posts its money.
import type { Knex } from 'knex';
import { definePort } from '../../runtime/ports.js';

/** An approved authorisation, as the network knows it. */
export interface ApprovedPurchase { id: string; merchant_name: string }

export interface CardNetwork {
  /** Called in the authorisation's transaction. */
  approved(db: Knex, purchase: ApprovedPurchase): Promise<void>;
}

export const cardNetwork = definePort<CardNetwork>('card network');
