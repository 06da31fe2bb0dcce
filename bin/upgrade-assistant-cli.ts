// `npm run diff -- --key <apik_...> [--target <date>] [--json]`: the upgrade assistant (handlers/api_logs/
// upgrade-assistant.ts) for one API key, read from the database at DATABASE_URL, as text or JSON.

// Composed as a server process is: it runs handlers and runtime code that read the API's definition.
import '../wiring/compose.js';
import { createKnex } from '../runtime/db.js';
import { upgradeAssistant, type UpgradeAssistant } from '../handlers/api_logs/upgrade-assistant.js';

export function formatAssistant(a: UpgradeAssistant): string {
  const lines = [`API key ${a.api_key_id}: from ${a.from} to ${a.to} (versions used: ${a.pins.join(', ')})`,
    `operations called: ${a.operations_used.join(', ') || 'none logged in the last 7 days'}`,
    `${a.changes.length} change${a.changes.length === 1 ? '' : 's'} touch them, ${a.breaking} breaking`];
  if (a.migrations.length) lines.push(`migrations crossed: ${a.migrations.join(', ')}`);
  for (const c of a.changes) {
    lines.push(`${c.breaking ? 'BREAKING ' : ''}[${c.ref}] ${c.resource ?? c.operations[0]}: ${c.description} (${c.operations.join(', ')})`,
      `    ${c.changelog}`);
  }
  return lines.join('\n');
}

export async function runUpgradeAssistant(args: string[]): Promise<number> {
  const keyId = args[args.indexOf('--key') + 1];
  const targetAt = args.indexOf('--target');
  const target = targetAt >= 0 ? args[targetAt + 1] : undefined;
  const url = process.env.DATABASE_URL;
  if (!url || !keyId || keyId.startsWith('--')) {
    console.error('usage: DATABASE_URL=postgres://... npm run diff -- --key <api key id> [--target <version date>] [--json]');
    return 2;
  }
  const db = createKnex(url, 1);
  try {
    const key = await db('api_keys').where({ id: keyId }).first('id', 'api_version_date');
    if (!key) { console.error(`error: no such API key: ${keyId}`); return 1; }
    const a = await upgradeAssistant(db, key, target);
    console.log(args.includes('--json') ? JSON.stringify(a, null, 2) : formatAssistant(a));
    return 0;
  } catch (e) {
    console.error(`error: ${(e as Error).message}`);
    return 1;
  } finally {
    await db.destroy();
  }
}
