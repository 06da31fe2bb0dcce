// Crypto deposits: stablecoins sent to a deposit address, one crypto_deposits row per network and transaction hash
// (a unique index: a transfer reported twice is one deposit), shown as CryptoDeposit. The supported networks are
// reference data (crypto_networks); each owner has one address per network, made by the network on first use.
import type { Knex } from 'knex';
import { query } from '../../runtime/request-db.js';
import { newId } from '../../runtime/ids.js';
import { decimalText } from '../../runtime/decimal-money.js';
import type { CryptoDeposit } from '../../generated/types.js';
import { cryptoNetwork, type Network } from './crypto-network-port.js';
import type { Tables } from '../../generated/rows.js';

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

export type DepositRow = Tables['crypto_deposits'];

export function cryptoDepositView(row: DepositRow): CryptoDeposit {
  return {
    id: row.id,
    object: 'crypto_deposit',
    account_id: row.owner_id,
    network: row.network,
    address: row.address,
    token: row.token,
    token_amount: decimalText({ amount: Number(row.token_units), decimals: TOKEN_DECIMALS }),
    amount: decimalText({ amount: Number(row.amount), decimals: 2 }),
    currency: row.currency,
    tx_hash: row.tx_hash,
    status: row.status as CryptoDeposit['status'], // written by this area only, with the API's values
    status_detail: row.status_detail,
    settled_at: row.settled_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Events go to a business destination's account; a personal wallet's have none. */
export const eventAccount = (ownerId: string): string | null => (ownerId.startsWith('biz_') ? ownerId : null);
