// Deposit destinations, their addresses and simulated on-chain transfers, through the API.
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';
import { headVersion } from '../../runtime/versions.js';
import { ledgerOf } from '../../handlers/ledger/ledgers.js';

export const VERSION = headVersion();
/** Before entry 32 (2026-08-21): the object destination, top-level network and metadata. */
export const PIN = '2026-08-14';

/** The destination's address on `network`, from POST /deposits. */
export async function addressOf(app: TestApp, token: string, destination: string, network = 'ethereum'): Promise<string> {
  const res = await app.request('POST', '/deposits', { token, version: VERSION, body: { destination } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.methods.crypto.find((m: { network: string }) => m.network === network).address;
}

export async function send(app: TestApp, token: string, body: Record<string, unknown>, status = 201) {
  const res = await app.request('POST', '/sandbox/crypto_network/transfers', { token, version: VERSION, body });
  assert.is(res.status, status, JSON.stringify(res.body));
  return res.body;
}

export const balanceOf = async (app: TestApp, side: string, bucket = 'available', currency = 'usd') =>
  Number((await app.db('ledger_balances').where({ ledger_id: await ledgerOf(app.db, side), currency, bucket }).first('amount'))?.amount ?? 0);

export const txHash = () => `0x${[...Array(64)].map(() => '0123456789abcdef'[Math.floor(Math.random() * 16)]).join('')}`;
