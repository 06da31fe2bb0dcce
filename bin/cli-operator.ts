// `npm run cli -- operator`: the platform operator's switches on an account, which no API caller may set:
// withdrawals disabled (payment_controls.undated_pending_reason withdrawals_disabled: payouts refused, funds held from
// clearing) and mandatory 3-D Secure challenges enabled (three_d_secure_policy mandate_challenge accepted for the
// account and its connected accounts). Each change is recorded with --operator and its time (operator_actions).
import type { Knex } from 'knex';
import { CliError } from './cli-commands.js';
import { newId } from '../runtime/ids.js';
import { holdFunds, releaseFunds } from '../handlers/accounts/payment-controls.js';

type Values = Record<string, string | undefined>;

const SWITCHES = ['withdrawals', 'three-d-secure-challenges'] as const;
const SETTINGS: Record<(typeof SWITCHES)[number], readonly string[]> = {
  withdrawals: ['disable', 'enable'],
  'three-d-secure-challenges': ['enable', 'disable'],
};

export function checkOperator(v: Values): void {
  const given = SWITCHES.filter((s) => v[s] !== undefined);
  if (given.length > 1) throw new CliError('use one of --withdrawals, --three-d-secure-challenges');
  for (const s of given) {
    if (!SETTINGS[s].includes(v[s]!)) throw new CliError(`--${s} must be ${SETTINGS[s].join(' or ')}, not '${v[s]}'`);
  }
  if (given.length && !v.operator?.trim()) throw new CliError('--operator NAME is required to change a switch: it is recorded with the change');
}

export async function runOperator(db: Knex, v: Values): Promise<Record<string, unknown>> {
  const accountId = v.account!;
  const s = SWITCHES.find((x) => v[x] !== undefined);
  return db.transaction(async (trx) => {
    const account = await trx('accounts').where({ id: accountId }).forUpdate().first('id');
    if (!account) throw new CliError(`no account ${accountId}`);
    if (s) {
      const action = `${s}:${v[s]}`;
      if (action === 'withdrawals:disable') await holdFunds(trx, accountId, 'withdrawals_disabled', true);
      if (action === 'withdrawals:enable') await releaseFunds(trx, accountId, 'withdrawals_disabled');
      if (s === 'three-d-secure-challenges') {
        await trx('accounts').where({ id: accountId }).update({ three_d_secure_challenge_enabled: v[s] === 'enable' });
      }
      await trx('operator_actions').insert({ id: newId('opact_'), operator: v.operator!.trim(), account_id: accountId, action });
    }
    return shown(trx, accountId, s ? 'changed' : 'shown');
  });
}

async function shown(db: Knex, accountId: string, action: string): Promise<Record<string, unknown>> {
  const row = await db('accounts').where({ id: accountId }).first('undated_pending_reason', 'three_d_secure_challenge_enabled');
  const last = await db('operator_actions').where({ account_id: accountId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).first();
  return {
    action, account_id: accountId,
    withdrawals: row.undated_pending_reason === 'withdrawals_disabled' ? 'disabled' : 'enabled',
    undated_pending_reason: row.undated_pending_reason,
    three_d_secure_challenges: row.three_d_secure_challenge_enabled ? 'enabled' : 'disabled',
    last_change: last ? { action: last.action, operator: last.operator, at: new Date(last.created_at).toISOString() } : null,
  };
}

export function printOperator(r: Record<string, any>): string[] {
  const lines = [
    `${r.account_id}: withdrawals ${r.withdrawals}${r.undated_pending_reason && r.withdrawals === 'enabled' ? ` (funds held: ${r.undated_pending_reason})` : ''}, mandatory 3-D Secure challenges ${r.three_d_secure_challenges}`,
  ];
  if (r.last_change) lines.push(`  last change: ${r.last_change.action} by ${r.last_change.operator} at ${r.last_change.at}`);
  return lines;
}
