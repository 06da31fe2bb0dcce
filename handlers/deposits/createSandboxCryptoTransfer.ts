// Written by hand, not declared plain: money: a simulated network transfer to a deposit address, confirmed by a job.
import type { Handler } from '../../generated/handler.js';
import { conflict, invalid, notFound } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { query } from '../../runtime/request-db.js';
import { minorUnits } from '../../runtime/decimal-money.js';
import { ledgerOf } from '../ledger/index.js';
import { resources } from '../../generated/resources.js';
import type { CryptoDepositRow } from '../../generated/rows.js';
import { eventAccount, networks, TOKEN_DECIMALS, usdCentsOf } from './crypto-deposits.js';
import { cryptoNetwork } from './crypto-network-port.js';
import { requireDestination } from './destination.js';

// One deposit per network and transaction: a second report (even a concurrent one, which waits for the first's
// commit) inserts nothing and reads the first.
const REPORT = `with made as (
    insert into crypto_deposits (id, owner_id, ledger_id, network, address, token, token_units, currency, amount, tx_hash, status, status_detail)
    values ($1, $2, $3, $4, $5, $6, $7, 'usd', $8, $9, 'pending', 'Waiting for the network''s confirmations.')
    on conflict (network, tx_hash) do nothing returning *)
  select true as made, * from made`;

/**
 * POST /sandbox/crypto_network/transfers: the network reports a transfer to a deposit address. The address's owner
 * may simulate it; the deposit waits for the network's confirmations (a background job).
 */
export const createSandboxCryptoTransfer: Handler<'createSandboxCryptoTransfer'> = async ({ body }, ctx) => {
  const all = await networks(ctx.db);
  const network = all.find((n) => n.id === body.network);
  if (!network) throw invalid(`network must be one of ${all.map((n) => n.id).join(', ')}`, 'network');
  const token = body.token.toLowerCase();
  if (!network.tokens.includes(token)) throw invalid(`${network.name} carries ${network.tokens.join(' and ')}; token must be one of them`, 'token');
  const [address] = await query<{ owner_id: string }>(ctx.db,
    'select owner_id from crypto_deposit_addresses where network = $1 and address = $2', [network.id, body.address]);
  if (!address) throw notFound('deposit address', body.address, 'address');
  await requireDestination(ctx, address.owner_id, 'company:balance:read', 'address', 'deposit address', body.address);
  const units = BigInt(minorUnits(body.amount, TOKEN_DECIMALS)!);
  if (units <= 0n) throw invalid('amount must be more than zero', 'amount');
  const txHash = body.tx_hash ?? cryptoNetwork().newTxHash(network);
  const id = newId('cdep_');
  const [made] = await query<CryptoDepositRow>(ctx.db, REPORT, [id, address.owner_id, await ledgerOf(ctx.db, address.owner_id),
    network.id, body.address, token, units.toString(), usdCentsOf(units), txHash]);
  if (made) {
    const view = resources.CryptoDeposit.view(made);
    await cryptoNetwork().watch(ctx.db, id, network);
    await ctx.emit('crypto_deposit.created', eventAccount(address.owner_id), view);
    return view;
  }
  const [seen] = await query<CryptoDepositRow>(ctx.db, 'select * from crypto_deposits where network = $1 and tx_hash = $2', [network.id, txHash]);
  const same = seen.address === body.address && seen.token === token && BigInt(seen.token_units) === units;
  if (!same) throw conflict(`Transaction ${txHash} on ${network.id} was already reported with other details`, 'tx_hash');
  return resources.CryptoDeposit.view(seen);
};
