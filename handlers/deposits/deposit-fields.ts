// The CryptoDeposit fields only code can read from a row (spec/areas/deposits.yaml names them under columns: code):
// the token amount (millionths) and its value (cents), shown as decimal strings.
import type { CryptoDepositRow } from '../../generated/rows.js';
import { decimalText } from '../../runtime/decimal-money.js';
import { TOKEN_DECIMALS } from './crypto-deposits.js';

export const depositTokenAmount = (row: CryptoDepositRow): string =>
  decimalText({ amount: Number(row.token_units), decimals: TOKEN_DECIMALS });
export const depositAmount = (row: CryptoDepositRow): string => decimalText({ amount: Number(row.amount), decimals: 2 });
