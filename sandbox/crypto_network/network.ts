// The sandbox's simulated crypto network: what a chain and its indexer would do with stablecoins sent to a deposit
// address. Addresses and transaction hashes have the network's format; a watched transfer is confirmed by the
// crypto_network_confirm task after the network's confirmations, through the deposits area
// (handlers/deposits/confirm-deposit.ts), which credits it once: a re-run job is harmless.
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Task } from 'graphile-worker';
import { addJob } from '../../runtime/jobs.js';
import { clockNow } from '../../runtime/clock.js';
import type { CryptoNetwork, Network } from '../../handlers/deposits/index.js';
import { confirmDeposit } from '../../handlers/deposits/index.js';

export const CRYPTO_NETWORK_CONFIRM = 'crypto_network_confirm';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const base58 = (length: number) => [...randomBytes(length)].map((b) => BASE58[b % 58]).join('');

/** A fresh address in the network's format: 0x and 40 hex digits on EVM chains, 44 base58 characters on Solana. */
const newAddress = (n: Network): string => (n.address_format === 'evm' ? `0x${randomBytes(20).toString('hex')}` : base58(44));
/** A fresh transaction hash in the network's format. */
const newTxHash = (n: Network): string => (n.address_format === 'evm' ? `0x${randomBytes(32).toString('hex')}` : base58(88));

/** Seconds the sandbox takes per confirmation (CRYPTO_NETWORK_SECONDS scales it; 0 confirms at once). */
const SECONDS_PER_CONFIRMATION = 0.25;
const scale = () => Number(process.env.CRYPTO_NETWORK_SECONDS ?? 1);

async function watch(db: Knex, depositId: string, n: Network): Promise<void> {
  const runAt = new Date(clockNow().getTime() + n.confirmations * SECONDS_PER_CONFIRMATION * scale() * 1000);
  await addJob(db, CRYPTO_NETWORK_CONFIRM, { deposit_id: depositId }, { jobKey: `${CRYPTO_NETWORK_CONFIRM}:${depositId}`, runAt });
}

export const sandboxCryptoNetwork: CryptoNetwork = { newAddress, newTxHash, watch };

export const confirmDepositTask = (db: Knex): Task => async (payload) => {
  await confirmDeposit(db, (payload as { deposit_id: string }).deposit_id);
};
