// The platform operator's switches (npm run cli -- operator, bin/cli-operator.ts) for tests that run the server in
// process: the command's own code on the test database, as the operator's command line would run it
// (test/cli/cli-operator.test.ts runs the command itself).
import type { Knex } from 'knex';
import { runOperator } from '../../bin/cli-operator.js';

export const enableChallenges = (db: Knex, accountId: string) =>
  runOperator(db, { account: accountId, 'three-d-secure-challenges': 'enable', operator: 'test' });

export const disableWithdrawals = (db: Knex, accountId: string) =>
  runOperator(db, { account: accountId, withdrawals: 'disable', operator: 'test' });

export const enableWithdrawals = (db: Knex, accountId: string) =>
  runOperator(db, { account: accountId, withdrawals: 'enable', operator: 'test' });
