// The rule payment method domains exist for: wallet payment methods (Apple Pay, Google Pay) are offered, tokenised
// and charged only on a checkout served from a hostname that is a verified payment method domain of the account.
// Cards are offered everywhere.
import type { Knex } from 'knex';
import { invalid } from '../../runtime/errors.js';

export const WALLET_METHODS = ['apple_pay', 'google_pay'] as const;
export const CHECKOUT_METHODS = ['card', ...WALLET_METHODS] as const;
export type CheckoutMethod = (typeof CHECKOUT_METHODS)[number];

const NAME: Record<CheckoutMethod, string> = { card: 'Card', apple_pay: 'Apple Pay', google_pay: 'Google Pay' };

export const isWallet = (method: string): boolean => (WALLET_METHODS as readonly string[]).includes(method);

/** The domain's status for the account: 'verified', 'pending', or null when the account never registered it. */
export async function domainStatus(db: Knex, accountId: string, domain: string): Promise<string | null> {
  const row = await db('payment_method_domains').where({ account_id: accountId, domain: domain.toLowerCase() }).first('status');
  return row?.status ?? null;
}

/** Why a wallet method (or, for 'wallets', any) cannot be used on the hostname (a sentence), or null when it can. */
export function walletRefusal(method: string, domain: string, status: string | null): string | null {
  if (status === 'verified') return null;
  const name = NAME[method as CheckoutMethod] ?? 'Wallets';
  return status === 'pending'
    ? `${name} can be used only on a verified payment method domain: '${domain}' is still pending (publish its DNS proof)`
    : `${name} can be used only on a verified payment method domain: '${domain}' is not registered for this account (POST /payment_method_domains)`;
}

/** A 400 naming `param` unless the wallet may be used on the hostname. */
export async function requireWalletDomain(db: Knex, accountId: string, method: string, domain: string, param: string): Promise<void> {
  const why = walletRefusal(method, domain, await domainStatus(db, accountId, domain));
  if (why) throw invalid(why, param);
}
