// What deposits asks of a crypto network (a chain and its indexer): addresses and transaction hashes in the
// network's format, and to watch a reported transfer. The network confirms it, after its confirmations, through
// confirm-deposit.ts, where this area credits it.
import type { Knex } from 'knex';
import { definePort } from '../../runtime/ports.js';

/** A supported network (reference data: crypto_networks). */
export interface Network { id: string; name: string; address_format: 'evm' | 'solana'; tokens: string[]; confirmations: number }

export interface CryptoNetwork {
  newAddress(network: Network): string;
  newTxHash(network: Network): string;
  /** Called in the transaction that records the transfer. */
  watch(db: Knex, depositId: string, network: Network): Promise<void>;
}

export const cryptoNetwork = definePort<CryptoNetwork>('crypto network');
