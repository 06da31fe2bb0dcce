// Before 2026-08-07 (entry 44) a swap between two fiat currencies took amount as the repayment: what to receive in
// to_token, which to_amount says now. Fiat tokens are the three-letter currency codes; a stablecoin's amount (usdc,
// usdt) was the amount swapped, as now.
const FIAT = /^[A-Za-z]{3}$/;

export function up(input: { body: Record<string, unknown> }): void {
  const { amount, from_token: from, to_token: to } = input.body;
  if (amount === undefined || typeof from !== 'string' || typeof to !== 'string') return;
  if (!FIAT.test(from) || !FIAT.test(to)) return;
  input.body.to_amount = amount;
  delete input.body.amount;
}
