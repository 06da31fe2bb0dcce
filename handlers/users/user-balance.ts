// A user's personal wallet as the User resource shows it to the user: the USD breakdown and one per currency, read
// from the materialised balances in one statement (no wallet yet reads as zero in USD).
import type { Knex } from 'knex';
import type { UserBalance, CurrencyBalance } from '../../generated/types.js';
import { query } from '../../runtime/request-db.js';
import { money } from '../../runtime/money.js';

const BUCKETS = ['available', 'pending', 'in_transit'] as const;

export async function walletBalanceOf(db: Knex, userId: string): Promise<UserBalance> {
  const rows = await query<{ currency: string; bucket: string; amount: string }>(db,
    `select b.currency, b.bucket, b.amount from ledger_accounts l join ledger_balances b on b.ledger_id = l.id
     where l.user_id = $1 and l.kind = 'personal' and b.bucket = any($2)`, [userId, BUCKETS]);
  const currencies = [...new Set(['usd', ...rows.map((r) => r.currency).sort()])].map((currency): CurrencyBalance => {
    const of = (bucket: string) => money(Number(rows.find((r) => r.currency === currency && r.bucket === bucket)?.amount ?? 0), currency);
    return { currency, available: of('available'), pending: of('pending'), in_transit: of('in_transit') };
  });
  const [usd] = currencies;
  return { available: usd.available, pending: usd.pending, in_transit: usd.in_transit, currencies };
}
