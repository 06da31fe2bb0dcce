// The sandbox's simulated crypto network: what a chain and its indexer would do with stablecoins sent to a deposit
// address, as real state moved by background jobs (graphile-worker). A reported transfer is one crypto_deposits row
// per network and transaction hash (a unique index: a transfer reported twice is one deposit). The
// crypto_network_confirm task confirms it after the network's confirmations, in one transaction with the deposit
// locked: worth at least the minimum, it is credited once (entry <cdep_>:credited); under it, recorded as
// below_minimum and not credited. A deposit no longer pending is left alone, so a re-run job is harmless.
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { query } from '../../runtime/request-db.js';
import { newId } from '../../runtime/ids.js';
import { addJob } from '../../runtime/jobs.js';
import { clockNow } from '../../runtime/clock.js';
import { recordEvent } from '../../runtime/events.js';
import { transition } from '../../runtime/state-machine.js';
import { decimalText } from '../../runtime/decimal-money.js';
import type { CryptoDeposit } from '../../generated/types.js';
import { ledgerOf, PLATFORM } from '../ledger/ledgers.js';
import { postEntry } from '../ledger/post.js';

export const CRYPTO_NETWORK_CONFIRM = 'crypto_network_confirm';
/** The seed's crypto deposit minimum: 10 USD, in cents. */
export const DEPOSIT_MINIMUM = 1_000;
/** Stablecoins carry 6 decimals; the ledger's usd has 2: a token unit is 10^4 of a cent's. */
export const TOKEN_DECIMALS = 6;
const UNITS_PER_CENT = 10_000n;

export interface Network { id: string; name: string; address_format: 'evm' | 'solana'; tokens: string[]; confirmations: number }

export const networks = (db: Knex): Promise<Network[]> =>
  query<Network>(db, 'select id, name, address_format, tokens, confirmations from crypto_networks order by position', []);

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const base58 = (length: number) => [...randomBytes(length)].map((b) => BASE58[b % 58]).join('');

/** A fresh address in the network's format: 0x and 40 hex digits on EVM chains, 44 base58 characters on Solana. */
export const newAddress = (n: Network): string => (n.address_format === 'evm' ? `0x${randomBytes(20).toString('hex')}` : base58(44));
/** A fresh transaction hash in the network's format. */
export const newTxHash = (n: Network): string => (n.address_format === 'evm' ? `0x${randomBytes(32).toString('hex')}` : base58(88));

/** The owner's address on every network, made on first use (one per owner and network: a unique index settles races). */
export async function addressesOf(db: Knex, ownerId: string, all: Network[]): Promise<Map<string, string>> {
  const fresh = all.map((n) => [newId('cdad_'), ownerId, n.id, newAddress(n)]);
  await query(db, `insert into crypto_deposit_addresses (id, owner_id, network, address)
    select * from unnest($1::text[], $2::text[], $3::text[], $4::text[]) on conflict (owner_id, network) do nothing`,
  [0, 1, 2, 3].map((i) => fresh.map((row) => row[i])));
  const rows = await query<{ network: string; address: string }>(db,
    'select network, address from crypto_deposit_addresses where owner_id = $1', [ownerId]);
  return new Map(rows.map((r) => [r.network, r.address]));
}

/** A token amount in millionths -> its USD value in cents, 1:1, rounded down (the sub-cent rest is not credited). */
export const usdCentsOf = (units: bigint): number => Number(units / UNITS_PER_CENT);

export type DepositRow = Record<string, any>;

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
    status: row.status,
    status_detail: row.status_detail,
    settled_at: row.settled_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Events go to a business destination's account; a personal wallet's have none. */
export const eventAccount = (ownerId: string): string | null => (ownerId.startsWith('biz_') ? ownerId : null);

/** Seconds the sandbox takes per confirmation (CRYPTO_NETWORK_SECONDS scales it; 0 confirms at once). */
const SECONDS_PER_CONFIRMATION = 0.25;
const scale = () => Number(process.env.CRYPTO_NETWORK_SECONDS ?? 1);

export async function queueConfirmation(db: Knex, depositId: string, n: Network): Promise<void> {
  const runAt = new Date(clockNow().getTime() + n.confirmations * SECONDS_PER_CONFIRMATION * scale() * 1000);
  await addJob(db, CRYPTO_NETWORK_CONFIRM, { deposit_id: depositId }, { jobKey: `${CRYPTO_NETWORK_CONFIRM}:${depositId}`, runAt });
}

/** The network confirms a deposit; returns the status it reached, or null when it was no longer pending. */
export async function confirmDeposit(db: Knex, depositId: string): Promise<string | null> {
  return db.transaction(async (trx) => {
    const [d] = await query<DepositRow>(trx, 'select * from crypto_deposits where id = $1 for update', [depositId]);
    if (!d || d.status !== 'pending') return null;
    const credited = Number(d.amount) >= DEPOSIT_MINIMUM;
    const status = transition('CryptoDeposit', d.status, credited ? 'confirm' : 'refuse_below_minimum');
    if (credited) {
      await postEntry(trx, `${d.id}:credited`, d.currency, [
        { ledger: await ledgerOf(trx, PLATFORM), bucket: 'crypto_clearing', amount: -Number(d.amount) },
        { ledger: d.ledger_id, bucket: 'available', amount: Number(d.amount) },
      ]);
    }
    const detail = credited ? 'Confirmed and credited.'
      : `Worth less than the ${decimalText({ amount: DEPOSIT_MINIMUM, decimals: 2 })} USD minimum: recorded, not credited.`;
    const [row] = await query<DepositRow>(trx, `update crypto_deposits set status = $2, status_detail = $3,
      settled_at = date_trunc('milliseconds', now()), updated_at = date_trunc('milliseconds', now()) where id = $1 returning *`,
    [d.id, status, detail]);
    await recordEvent(trx, credited ? 'crypto_deposit.confirmed' : 'crypto_deposit.below_minimum', eventAccount(d.owner_id), cryptoDepositView(row));
    return status;
  });
}

export const confirmDepositTask = (db: Knex): Task => async (payload) => {
  await confirmDeposit(db, (payload as { deposit_id: string }).deposit_id);
};

export function cryptoNetworkTasks(db: Knex) {
  return { [CRYPTO_NETWORK_CONFIRM]: confirmDepositTask(db) };
}
