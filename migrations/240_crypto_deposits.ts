// Deposits over the sandbox's simulated crypto network (handlers/crypto_network/): the networks it supports (a
// reference table), one deposit address per destination (an account's business balance, biz_, or a user's personal
// wallet, user_) and network, and the on-chain transfers the network reported to those addresses. A transfer is
// one row per network and transaction hash (a unique index), so a network reporting it twice is credited once.
import type { Knex } from 'knex';
import { money, timestamp, timestamps } from './support/columns.js';

/** The simulated network's chains: the stablecoins each carries and the confirmations it waits for. */
export const CRYPTO_NETWORKS = [
  { id: 'ethereum', name: 'Ethereum', address_format: 'evm', tokens: ['usdc', 'usdt'], confirmations: 12, position: 1 },
  { id: 'base', name: 'Base', address_format: 'evm', tokens: ['usdc'], confirmations: 10, position: 2 },
  { id: 'polygon', name: 'Polygon', address_format: 'evm', tokens: ['usdc', 'usdt'], confirmations: 64, position: 3 },
  { id: 'solana', name: 'Solana', address_format: 'solana', tokens: ['usdc', 'usdt'], confirmations: 32, position: 4 },
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('crypto_networks', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.text('address_format').notNullable(); // evm: 0x + 40 hex; solana: 44 base58 characters
    t.specificType('tokens', 'text[]').notNullable();
    t.integer('confirmations').notNullable();
    t.integer('position').notNullable();
  });
  await knex('crypto_networks').insert(CRYPTO_NETWORKS);

  await knex.schema.createTable('crypto_deposit_addresses', (t) => {
    t.text('id').primary(); // cdad_
    t.text('owner_id').notNullable(); // biz_ (a business balance) or user_ (a personal wallet)
    t.text('network').notNullable().references('crypto_networks.id');
    t.text('address').notNullable();
    timestamps(t, knex);
    t.unique(['owner_id', 'network']); // one address per destination and network, made once
    t.unique(['network', 'address']);
  });

  await knex.schema.createTable('crypto_deposits', (t) => {
    t.text('id').primary(); // cdep_
    t.text('owner_id').notNullable();
    t.text('ledger_id').notNullable().references('ledger_accounts.id');
    t.text('network').notNullable().references('crypto_networks.id');
    t.text('address').notNullable();
    t.text('token').notNullable();
    t.bigInteger('token_units').notNullable(); // the token amount in millionths (stablecoins carry 6 decimals)
    t.text('currency').notNullable().defaultTo('usd');
    money(t, 'amount').notNullable(); // its value in minor units of currency: what is credited once confirmed
    t.text('tx_hash').notNullable();
    t.text('status').notNullable(); // pending | confirmed | below_minimum
    t.text('status_detail').nullable();
    timestamp(t, 'settled_at').nullable();
    timestamps(t, knex);
    t.unique(['network', 'tx_hash']);
    t.index(['owner_id', 'created_at', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('crypto_deposits');
  await knex.schema.dropTableIfExists('crypto_deposit_addresses');
  await knex.schema.dropTableIfExists('crypto_networks');
}
