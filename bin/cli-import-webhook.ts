// `npm run cli -- operator import-webhook`: the platform operator imports an older (v2 or v5) webhook subscription,
// which keeps receiving its own payload format; no API call creates or switches to one. Recorded with --operator and
// the time (operator_actions). The signing secret is shown once (a given --secret is kept, so the receiver keeps
// verifying what it already verifies).
import type { Knex } from 'knex';
import { CliError } from './cli-commands.js';
import { LEGACY_FORMATS, importLegacyWebhook } from '../handlers/webhooks/import-legacy-webhook.js';

type Values = Record<string, string | undefined>;

export function checkImportWebhook(v: Values): void {
  if (!(LEGACY_FORMATS as readonly string[]).includes(v.format!)) {
    throw new CliError(`--format must be ${LEGACY_FORMATS.join(' or ')}, not '${v.format}' (v1 subscriptions are created with POST /webhooks)`);
  }
  if (!v.operator?.trim()) throw new CliError('--operator NAME is required: it is recorded with the import');
  if (v.events !== undefined && !v.events.split(',').some((e) => e.trim())) throw new CliError('--events must name at least one event, comma-separated');
}

export function runImportWebhook(db: Knex, v: Values): Promise<Record<string, unknown>> {
  return importLegacyWebhook(db, {
    accountId: v.account!, url: v.url!, format: v.format!, operator: v.operator!.trim(),
    events: v.events?.split(',').map((e) => e.trim()).filter(Boolean), description: v.description, secret: v.secret,
  });
}

export function printImportWebhook(r: Record<string, any>): string[] {
  const w = r.webhook;
  return [
    `Imported ${w.api_version} webhook subscription ${w.id} for ${w.account_id}`,
    `  url:         ${w.url}`,
    `  events:      ${w.events.join(', ')}`,
    `  format:      ${w.api_version} (its payloads keep the ${w.api_version} format)`,
    `  secret:      ${r.secret}`,
    `  recorded:    ${r.operator_action.action} by ${r.operator_action.operator} at ${r.operator_action.at}`,
    r.secret_given ? 'The subscription signs with the secret given.' : 'The signing secret is shown only now; keep it.',
  ];
}
