// `npm run cli -- <command>`: accounts, users and credentials for local development, on the database `npm start` uses.

// Composed as a server process is: it runs handlers and runtime code that read the API's definition.
import '../wiring/compose.js';
import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import { ApiError } from '../runtime/errors.js';
import type { LocalDatabase } from './local-database.js';
import { CliError, KEY_ROLES, checkRole, createAccount, createKey, createToken, createUser } from './cli-commands.js';
import { verifyLedger, type LedgerReport } from '../handlers/ledger/verify-ledger.js';
import { checkClock, printClock, runClock } from './cli-clock.js';
import { checkOperator, printOperator, runOperator } from './cli-operator.js';
import { checkImportWebhook, printImportWebhook, runImportWebhook } from './cli-import-webhook.js';
import { checkDeprecations, printDeprecations, runDeprecations } from './cli-deprecations.js';
import { checkShadowReplay, printShadowReplay, runShadowReplay } from './cli-shadow-replay.js';

type Values = Record<string, string | undefined>;

interface Command {
  usage: string;
  summary: string;
  /** flag: an option without a value (its value is then 'yes') */
  options: Record<string, { required?: boolean; flag?: boolean }>;
  /** checks the values before the database is opened; throws CliError */
  check?(values: Values): void;
  run(db: Knex, values: Values): Promise<Record<string, unknown>>;
  print(result: any): string[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkEmail(email: string | undefined): void {
  if (email !== undefined && !EMAIL.test(email)) throw new CliError(`--email must be an e-mail address, not '${email}'`);
}

const COMMANDS: Record<string, Command> = {
  'create-account': {
    usage: 'create-account --title T [--email E] [--country CC] [--owner USERNAME_OR_USER_ID] [--role ROLE]',
    summary: 'Create an account and an API key on it; with --owner that user becomes its owner team member.',
    options: { title: { required: true }, email: {}, country: {}, owner: {}, role: {} },
    check(v) {
      if (v.title!.trim().length > 100) throw new CliError('--title must be 1 to 100 characters');
      if (v.country !== undefined && !/^[A-Za-z]{2}$/.test(v.country)) {
        throw new CliError(`--country must be an ISO 3166-1 alpha-2 code such as US, not '${v.country}'`);
      }
      checkEmail(v.email);
      if (v.role !== undefined) checkRole(v.role);
    },
    run: (db, v) => createAccount(db, { title: v.title!.trim(), email: v.email, country: v.country?.toUpperCase(), owner: v.owner, role: v.role }),
    print: (r) => [
      `Created account ${r.account_id} (${r.title})`,
      ...(r.owner_user_id ? [`  owner:       ${r.owner_user_id} (${r.owner_username})`] : []),
      `  client id:   ${r.client_id} (for frontends; not a secret)`,
      `  API key:     ${r.api_key}`,
      `  API key id:  ${r.api_key_id} (role ${r.role})`,
      'The API key is shown only now; keep it.',
    ],
  },
  'create-user': {
    usage: 'create-user --username U --email E [--name N]',
    summary: 'Create a user and a user token.',
    options: { username: { required: true }, email: { required: true }, name: {} },
    check(v) {
      if (!/^\S{1,64}$/.test(v.username!)) throw new CliError('--username must be 1 to 64 characters without spaces');
      checkEmail(v.email);
    },
    run: (db, v) => createUser(db, { username: v.username!, email: v.email!, name: v.name }),
    print: (r) => [
      `Created user ${r.user_id} (${r.username})`,
      `  user token:     ${r.user_token}`,
      `  user token id:  ${r.user_token_id}`,
      'The user token is shown only now; keep it.',
    ],
  },
  'create-token': {
    usage: 'create-token --user USERNAME_OR_USER_ID',
    summary: 'Issue another user token.',
    options: { user: { required: true } },
    run: (db, v) => createToken(db, { user: v.user! }),
    print: (r) => [
      `Issued a user token for ${r.user_id} (${r.username})`,
      `  user token:     ${r.user_token}`,
      `  user token id:  ${r.user_token_id}`,
      'The user token is shown only now; keep it.',
    ],
  },
  'create-key': {
    usage: 'create-key --account biz_... [--role ROLE]',
    summary: 'Issue another API key on an account.',
    options: { account: { required: true }, role: {} },
    check: (v) => { if (v.role !== undefined) checkRole(v.role); },
    run: (db, v) => createKey(db, { account: v.account!, role: v.role }),
    print: (r) => [
      `Issued an API key on ${r.account_id} (${r.title})`,
      `  API key:     ${r.api_key}`,
      `  API key id:  ${r.api_key_id} (role ${r.role})`,
      'The API key is shown only now; keep it.',
    ],
  },
  clock: {
    usage: 'clock --account biz_... [--start ISO|+Nd [--name N] | --advance ISO|+Nd|+Nh [--wait SECONDS] | --delete yes]',
    summary: 'A sandbox clock: put the account (and its connected accounts) on one, advance it (the workers run what falls due; --wait waits), delete it, or show it.',
    options: { account: { required: true }, start: {}, name: {}, advance: {}, wait: {}, delete: {} },
    check: checkClock,
    run: runClock,
    print: printClock,
  },
  operator: {
    usage: 'operator --account biz_... [--withdrawals disable|enable | --three-d-secure-challenges enable|disable --operator NAME]',
    summary: 'The platform operator\'s switches on an account (recorded with --operator and the time), or show them.',
    options: { account: { required: true }, withdrawals: {}, 'three-d-secure-challenges': {}, operator: {} },
    check: checkOperator,
    run: runOperator,
    print: printOperator,
  },
  // A two-word command: `operator import-webhook` (parse() tries the first two words first).
  'operator import-webhook': {
    usage: 'operator import-webhook --account biz_... --url URL --format v2|v5 [--events E1,E2] [--description D] [--secret whsec_...] --operator NAME',
    summary: 'Import an older (v2 or v5) webhook subscription, which keeps its payload format (recorded with --operator and the time); the API never creates one.',
    options: { account: { required: true }, url: { required: true }, format: { required: true }, events: {}, description: {}, secret: {}, operator: { required: true } },
    check: checkImportWebhook,
    run: runImportWebhook,
    print: printImportWebhook,
  },
  deprecations: {
    usage: 'deprecations [--days 7] [--notify] [--record [--evidence FILE]]',
    summary: 'Which accounts and keys called each deprecated operation, and which keys and webhook subscriptions used each deprecated field, in the last days (api logs, deliveries); --notify tells each such account once per operation or field and window; --record writes spec/deprecation-evidence.json, which a sunset needs.',
    options: { days: {}, notify: { flag: true }, record: { flag: true }, evidence: {} },
    check: checkDeprecations,
    run: runDeprecations,
    print: printDeprecations,
  },
  'shadow-replay': {
    usage: 'shadow-replay --key apik_... [--target DATE]',
    summary: 'Replay the key\'s reads of the last 7 days at its version and at the target (default the latest), read-only, and show what differs in its answers, with the changelog entries.',
    options: { key: { required: true }, target: {} },
    check: checkShadowReplay,
    run: runShadowReplay,
    print: printShadowReplay,
  },
  'verify-ledger': {
    usage: 'verify-ledger',
    summary: 'Check that every balance equals the sum of its postings and every entry sums to zero (exit 1 if not).',
    options: {},
    async run(db) {
      const report = await verifyLedger(db);
      if (report.mismatches.length || report.unbalancedEntries.length || report.dailyTotalMismatches.length) throw new CliError(ledgerProblems(report));
      return { ...report };
    },
    print: (r: LedgerReport) => [`The ledger holds: ${r.balances} balances equal their postings; ${r.entries} entries each sum to zero.`],
  },
};

function ledgerProblems(r: LedgerReport): string {
  const lines = [`the ledger does not hold (${r.mismatches.length} balances differ from their postings, ${r.unbalancedEntries.length} entries do not sum to zero):`];
  for (const m of r.mismatches.slice(0, 20)) lines.push(`  ${m.ledger_id} ${m.currency} ${m.bucket}: balance ${m.balance}, postings sum to ${m.postings}`);
  for (const e of r.unbalancedEntries.slice(0, 20)) lines.push(`  entry ${e.entry_id} sums to ${e.sum}`);
  for (const d of r.dailyTotalMismatches.slice(0, 20)) lines.push(`  daily totals of ${d.ledger_id} ${d.currency} on ${d.day} differ from its postings`);
  return lines.join('\n');
}

const HELP = `Usage: npm run cli -- <command> [options] [--json]

Commands:
${Object.values(COMMANDS).map((c) => `  ${c.usage}\n      ${c.summary}`).join('\n')}

Options:
  --role ROLE   the API key's system role: ${KEY_ROLES.join(', ')} (default admin)
  --json        print the result as one JSON object (secrets included) for scripts
  -h, --help    show this help

Database: DATABASE_URL if set; otherwise the embedded PostgreSQL under .data/pg, the one \`npm start\` uses
(while \`npm start\` runs, the CLI connects to its server; otherwise it starts the embedded server for the command).

Example:
  npm run cli -- create-user --username alice --email alice@example.com
  npm run cli -- create-account --title "Alice's Shop" --owner alice --country US
  npm run cli -- clock --account biz_... --start +0d && npm run cli -- clock --account biz_... --advance +365d --wait 120
  npm run cli -- operator --account biz_... --withdrawals disable --operator alice
  npm run cli -- operator import-webhook --account biz_... --url https://example.com/hook --format v5 --operator alice
  npm run cli -- deprecations --days 7 --notify --record
  npm run cli -- shadow-replay --key apik_... --target 2026-09-06
`;

function fail(message: string, usage = false): never {
  console.error(`error: ${message}`);
  if (usage) console.error('Run `npm run cli -- --help` for usage.');
  process.exit(1);
}

function parse(argv: string[]): { command: Command; values: Values; json: boolean } {
  const name = argv[0];
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    // Asked for, help is the output; without a command, it explains the mistake.
    (name === undefined ? process.stderr : process.stdout).write(HELP);
    process.exit(name === undefined ? 1 : 0);
  }
  const twoWords = argv[1] !== undefined && COMMANDS[`${name} ${argv[1]}`] ? `${name} ${argv[1]}` : null;
  const command = COMMANDS[twoWords ?? name];
  if (!command) fail(`unknown command '${name}'; commands: ${Object.keys(COMMANDS).join(', ')}`, true);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.slice(twoWords ? 2 : 1),
      options: {
        ...Object.fromEntries(Object.entries(command.options).map(([o, spec]) => [o, { type: spec.flag ? 'boolean' as const : 'string' as const }])),
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (e) {
    fail(`${(e as Error).message}\nUsage: npm run cli -- ${command.usage}`);
  }
  const values = parsed.values as Values & { json?: boolean; help?: boolean };
  for (const [option, spec] of Object.entries(command.options)) if (spec.flag) values[option] = values[option] ? 'yes' : undefined;
  if (values.help) {
    process.stdout.write(`Usage: npm run cli -- ${command.usage}\n  ${command.summary}\n`);
    process.exit(0);
  }
  for (const [option, spec] of Object.entries(command.options)) {
    if (spec.required && !values[option]?.trim()) fail(`--${option} is required\nUsage: npm run cli -- ${command.usage}`);
  }
  try {
    command.check?.(values);
  } catch (e) {
    fail((e as Error).message);
  }
  return { command, values, json: values.json === true };
}

const { command, values, json } = parse(process.argv.slice(2));
// Loaded only once the command line is right: a usage mistake answers without loading database drivers.
const [{ createKnex }, { migrate }, { openLocalDatabase }] = await Promise.all([
  import('../runtime/db.js'), import('../runtime/migrate.js'), import('./local-database.js'),
]);
let exitCode = 0;
let database: LocalDatabase;
try {
  database = await openLocalDatabase({ databaseUrl: process.env.DATABASE_URL });
} catch (e) {
  fail((e as Error).message);
}
const db = createKnex(database.url, 2);
try {
  await migrate(db, database.url);
  const result = await command.run(db, values);
  console.log(json ? JSON.stringify(result, null, 2) : command.print(result).join('\n'));
} catch (e) {
  exitCode = 1;
  if (e instanceof CliError) {
    console.error(`error: ${e.message}`);
  } else if (e instanceof ApiError && e.status < 500) {
    // The services speak in API parameters; name the option and value the user typed.
    const given = e.param && values[e.param] !== undefined ? ` (--${e.param} ${values[e.param]})` : '';
    console.error(`error: ${e.message}${given}`);
  } else if (typeof (e as { code?: unknown }).code === 'string') {
    // A database or network failure: the message says it (e.g. ECONNREFUSED); a stack would not help.
    const where = new URL(database.url);
    console.error(`error: ${(e as Error).message || (e as { code: string }).code} (database ${where.host}${where.pathname})`);
  } else {
    console.error('error:', e);
  }
} finally {
  await db.destroy();
  await database.release();
}
process.exit(exitCode);
