// `npm run cli -- shadow-replay --key apik_... [--target DATE]`: the shadow replay (handlers/api_logs/shadow-replay.ts)
// of one API key, on the CLI's database: its logged reads re-run at its version and the target, in this process,
// through the app's own request handling (runtime/replay.ts), each in a read-only transaction.
import type { Knex } from 'knex';
import pino from 'pino';
import { CliError } from './cli-commands.js';
import { createApp } from '../runtime/app.js';
import { withConnection } from '../runtime/request-db.js';
import { operations } from '../generated/routes.js';
import { shadowReplay } from '../handlers/api_logs/index.js';
import type { ShadowReplay } from '../generated/types.js';

type Values = Record<string, string | undefined>;

export function checkShadowReplay(v: Values): void {
  if (!/^apik_\w+$/.test(v.key ?? '')) throw new CliError(`--key must be an API key id (apik_...), not '${v.key}'`);
  if (v.target !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(v.target)) throw new CliError(`--target must be a date (YYYY-MM-DD), not '${v.target}'`);
}

export async function runShadowReplay(db: Knex, v: Values): Promise<Record<string, unknown>> {
  const key = await db('api_keys').where({ id: v.key }).first('id', 'api_version_date');
  if (!key) throw new CliError(`no such API key: ${v.key}`);
  // The app the replays go through: the same one `npm start` serves, without its logs or budgets.
  createApp({ db, operations, logger: pino({ level: 'silent' }) });
  const { object: _object, ...replay } = await withConnection(db, (conn) => shadowReplay(conn, key, v.target));
  return replay;
}

export function printShadowReplay(r: ShadowReplay): string[] {
  const lines = [`API key ${r.api_key_id}: its reads replayed at ${r.from} and ${r.to} (${r.requests_replayed} of ${r.requests_logged} logged${r.sampled ? ', an even sample' : ''})`];
  for (const o of r.operations) {
    lines.push(`${o.operation} (${o.requests} read${o.requests === 1 ? '' : 's'}): ${o.differences.length ? `${o.differences.length} differences` : 'the same answers'}`);
    for (const d of o.differences) {
      lines.push(`  ${d.kind} ${d.path}: ${JSON.stringify(d.before)} -> ${JSON.stringify(d.after)}${d.ref ? ` [${d.ref}] ${d.changelog}` : ''}`);
    }
    for (const u of o.unreadable) lines.push(`  unreadable ${u.path}: ${u.status} ${u.message}`);
  }
  for (const w of r.writes) {
    lines.push(`${w.operation} (written, not replayed): ${w.request_changes.length} request changes`);
    for (const c of w.request_changes) lines.push(`  [${c.ref}] ${c.description}`);
  }
  return lines;
}
