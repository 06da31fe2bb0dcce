// `npm run cli -- deprecations [--days 7] [--notify] [--record [--evidence FILE]]`: deprecation from evidence, for the
// platform operator. Prints which accounts (and keys) called each deprecated operation in the window, and per
// deprecated field which accounts' keys called an operation carrying it and which webhook subscriptions were sent an
// event carrying it (from the api logs and the deliveries: handlers/api_logs/deprecated-usage.ts, with the map
// generated/deprecated-fields.ts); --notify tells each such account once per operation or field and window
// (handlers/notifications/deprecation-notices.ts); --record writes the evidence `npm run generate` reads before it
// accepts a `sunset:` date (spec/deprecation-evidence.json, generator/sunset-evidence.ts), to be committed.
import { writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Knex } from 'knex';
import { CliError } from './cli-commands.js';
import { projectRoot } from '../runtime/project-root.js';
import { deprecationReport, type DeprecationReport } from '../handlers/api_logs/deprecated-usage.js';
import { noticeEvidence, sendDeprecationNotices, type NoticeSent } from '../handlers/notifications/deprecation-notices.js';
import { EVIDENCE_FILE, type DeprecationEvidence } from '../generator/sunset-evidence.js';

type Values = Record<string, string | undefined>;

export function checkDeprecations(v: Values): void {
  if (v.days !== undefined && !/^[1-9][0-9]?$/.test(v.days)) throw new CliError(`--days must be a whole number of days from 1 to 99, not '${v.days}'`);
  if (v.evidence !== undefined && !v.record) throw new CliError('--evidence names the file --record writes; give --record too');
}

export async function runDeprecations(db: Knex, v: Values): Promise<Record<string, unknown>> {
  // Loaded here: the routes import every handler, which the other commands do not need.
  const { operations } = await import('../generated/routes.js');
  const { deprecatedFields } = await import('../generated/deprecated-fields.js');
  const { specData } = await import('../generated/spec-data.js');
  const report = await deprecationReport(db, operations, Number(v.days ?? 7), { fields: deprecatedFields, versions: specData.versions });
  const notices = v.notify ? await sendDeprecationNotices(db, report) : null;
  let recorded: string | null = null;
  if (v.record) {
    const evidence: DeprecationEvidence = { window_days: report.window_days, recorded_at: report.until, ...await noticeEvidence(db, report) };
    recorded = v.evidence ? (isAbsolute(v.evidence) ? v.evidence : join(process.cwd(), v.evidence)) : join(projectRoot, EVIDENCE_FILE);
    writeFileSync(recorded, `${JSON.stringify(evidence, null, 2)}\n`);
  }
  return { ...report, notices, recorded };
}

export function printDeprecations(r: DeprecationReport & { notices: NoticeSent[] | null; recorded: string | null }): string[] {
  const lines = [`Deprecated operations called from ${r.since} to ${r.until} (${r.window_days} days, from the api logs):`];
  for (const op of r.operations) {
    const head = `${op.operation} (${op.method} ${op.path}; successor ${op.successor ?? 'none'}${op.sunset ? `; sunset ${op.sunset}` : ''})`;
    if (!op.accounts.length) { lines.push(`  ${head}: unused`); continue; }
    lines.push(`  ${head}: ${op.accounts.length} account${op.accounts.length === 1 ? '' : 's'}`);
    for (const a of op.accounts) {
      lines.push(`    ${a.account_id} (${a.title ?? 'untitled'}): ${a.calls} call${a.calls === 1 ? '' : 's'}, last ${a.last_used_at}`);
      for (const k of a.api_keys) lines.push(`      ${k.api_key_id ?? 'user token'}: ${k.calls}, last ${k.last_used_at}, versions ${k.api_versions.join(', ') || 'unknown'}`);
    }
  }
  lines.push(`Deprecated fields used from ${r.since} to ${r.until} (by API keys' calls, from the api logs; by webhook subscriptions' deliveries):`);
  if (!r.fields.length) lines.push('  none is declared');
  for (const f of r.fields) {
    const head = `${f.field} (since ${f.since}; successor ${f.successor ?? 'none'}${f.sunset ? `; sunset ${f.sunset}` : ''})`;
    if (!f.accounts.length && !f.subscriptions.length) { lines.push(`  ${head}: unused`); continue; }
    lines.push(`  ${head}: ${f.accounts.length} account${f.accounts.length === 1 ? '' : 's'} by key, ${f.subscriptions.length} subscription${f.subscriptions.length === 1 ? '' : 's'}`);
    for (const a of f.accounts) {
      lines.push(`    ${a.account_id} (${a.title ?? 'untitled'}): ${a.calls} call${a.calls === 1 ? '' : 's'}, last ${a.last_used_at}`);
      for (const k of a.api_keys) lines.push(`      ${k.api_key_id ?? 'user token'}: ${k.calls}, last ${k.last_used_at}, versions ${k.api_versions.join(', ') || 'unknown'}, operations ${(k.operations ?? []).join(', ')}`);
    }
    for (const s of f.subscriptions) {
      lines.push(`    webhook ${s.webhook_id} of ${s.account_id} (${s.title ?? 'untitled'}): ${s.deliveries} deliver${s.deliveries === 1 ? 'y' : 'ies'}, last ${s.last_delivered_at}, versions ${s.api_versions.join(', ')}, events ${s.event_types.join(', ')}`);
    }
  }
  if (r.notices) {
    lines.push(`Notices sent: ${r.notices.length}${r.notices.length ? '' : ' (every using account was already told in this window)'}`);
    for (const n of r.notices) lines.push(`  ${n.account_id}: ${'operation' in n ? n.operation : n.field} -> ${n.successor ?? 'no successor'} (${n.recipients} team member${n.recipients === 1 ? '' : 's'})`);
  }
  if (r.recorded) lines.push(`Evidence recorded in ${r.recorded}; commit it with the spec.`);
  return lines;
}
