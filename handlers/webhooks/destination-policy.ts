// Where webhooks may be delivered (docs/settings.md, WEBHOOK_ALLOW_PRIVATE_DESTINATIONS). A server reachable from
// elsewhere delivers only to public addresses, so that a tenant cannot make it probe its own machine or network;
// one listening on loopback alone (`npm start`'s default) is someone's own machine, where delivering to a local
// listener is the point.
import { isIP } from 'node:net';
import { nonPublicAddress, nonPublicName } from '../../runtime/destination-address.js';
import type { DestinationPolicy } from '../../runtime/outbound-request.js';

export const PRIVATE_DESTINATIONS_SETTING = 'WEBHOOK_ALLOW_PRIVATE_DESTINATIONS';

/** Whether the address a server listens on (HOST) is reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const kind = isIP(bare) ? nonPublicAddress(bare)?.kind : nonPublicName(bare)?.kind;
  return kind === 'a loopback address';
}

/**
 * WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: true or false; unset, true exactly when HOST (default 127.0.0.1) is a
 * loopback address. Read on each use, so that every process that checks or delivers follows its own environment.
 */
export function webhookDestinationPolicy(env: NodeJS.ProcessEnv = process.env): DestinationPolicy {
  const raw = (env[PRIVATE_DESTINATIONS_SETTING] ?? '').toLowerCase();
  if (raw === 'true' || raw === '1') return { allowPrivate: true };
  if (raw === 'false' || raw === '0') return { allowPrivate: false };
  if (raw !== '') throw new Error(`${PRIVATE_DESTINATIONS_SETTING} must be true or false, not "${env[PRIVATE_DESTINATIONS_SETTING]}"`);
  return { allowPrivate: isLoopbackHost(env.HOST || '127.0.0.1') };
}
