// Crypto deposits: stablecoins sent to a deposit address, one crypto_deposits row per network and transaction hash
// (a unique index: a transfer reported twice is one deposit), shown as CryptoDeposit (its view is generated from the
// table: spec/areas/deposits.yaml, ./deposit-fields.ts). The supported networks are reference data
// (crypto_networks); each owner has one address per network, made by the network on first use.
import type { Knex } from 'knex';
import { query } from '../../runtime/request-db.js';
import { newId } from '../../runtime/ids.js';
import { cryptoNetwork, type Network } from './crypto-network-port.js';

/** The seed's crypto deposit minimum: 10 USD, in cents. */
export const DEPOSIT_MINIMUM = 1_000;
/** Stablecoins carry 6 decimals; the ledger's usd has 2: a token unit is 10^4 of a cent's. */
export const TOKEN_DECIMALS = 6;
const UNITS_PER_CENT = 10_000n;

export type { Network } from './crypto-network-port.js';

export const networks = (db: Knex): Promise<Network[]> =>
  query<Network>(db, 'select id, name, address_format, tokens, confirmations from crypto_networks order by position', []);

/** The owner's address on every network, made on first use (one per owner and network: a unique index settles races). */
export async function addressesOf(db: Knex, ownerId: string, all: Network[]): Promise<Map<string, string>> {
  const fresh = all.map((n) => [newId('cdad_'), ownerId, n.id, cryptoNetwork().newAddress(n)]);
  await query(db, `insert into crypto_deposit_addresses (id, owner_id, network, address)
    select * from unnest($1::text[], $2::text[], $3::text[], $4::text[]) on conflict (owner_id, network) do nothing`,
  [0, 1, 2, 3].map((i) => fresh.map((row) => row[i])));
  const rows = await query<{ network: string; address: string }>(db,
    'select network, address from crypto_deposit_addresses where owner_id = $1', [ownerId]);
  return new Map(rows.map((r) => [r.network, r.address]));
}

/** A token amount in millionths -> its USD value in cents, 1:1, rounded down (the sub-cent rest is not credited). */
export const usdCentsOf = (units: bigint): number => Number(units / UNITS_PER_CENT);

/** Events go to a business destination's account; a personal wallet's have none. */
export const eventAccount = (ownerId: string): string | null => (ownerId.startsWith('biz_') ? ownerId : null);
