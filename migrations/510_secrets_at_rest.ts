// No secret in a table in the clear (runtime/sealed-secrets.ts says which are hashed, sealed or derived):
// - claim codes, receipt tokens and OAuth states become their SHA-256 (runtime/credentials.ts hashSecret), so the
//   links already handed out keep working; a claim link made before shows claim_url null from here on;
// - tracking tokens and pending 3-D Secure steps are made again from the row's id: their hash is stored, and the
//   steps' stored next_action loses its url (views put it back). Tracking links handed out before stop working;
//   the transfer's tracking_url shows the new one;
// - webhook secrets, setup intents' client_secret and stored Idempotency-Key responses are sealed;
// - events lose the links they carried (a delivery makes them again: handlers/webhooks/delivery/secret-links.ts).
// It seals and derives with the server's secret (FILE_SIGNING_SECRET, or the one beside the local file store), so it
// runs in a process configured as the server is (npm start, bin/prepare-database.ts).
import type { Knex } from 'knex';
import { seal } from '../runtime/sealed-secrets.js';
import { trackingTokenHash } from '../handlers/transfers/transfer-secrets.js';
import { authenticationTokenHash } from '../handlers/shared/authentication-link.js';
import { rewriteRows as rewrite } from './support/rewrite-rows.js';

const SHA256_HEX = (column: string) => `encode(sha256(convert_to(${column}, 'UTF8')), 'hex')`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`update transfers set claim_code = ${SHA256_HEX('claim_code')} where claim_code is not null and length(claim_code) <> 64`);
  await knex.raw(`update payment_receipts set token = ${SHA256_HEX('token')} where length(token) <> 64`);
  await knex.raw(`update external_account_connections set state = ${SHA256_HEX('state')} where length(state) <> 64`);

  await rewrite(knex, 'transfers', 'id', 'tracking_token', 'length(tracking_token) <> 64', (r) => trackingTokenHash(r.id));
  for (const table of ['payments', 'setup_intents']) {
    await rewrite(knex, table, 'id', 'authentication_token', 'length(authentication_token) <> 64', (r) => authenticationTokenHash(r.id));
  }
  await knex.raw(`update payments set next_action = next_action #- '{redirect_to_url,url}' where jsonb_exists(next_action -> 'redirect_to_url', 'url')`);
  await knex.raw(`update setup_intents set next_action = next_action - 'redirect_url' where jsonb_exists(next_action, 'redirect_url')`);

  await rewrite(knex, 'webhooks', 'id', 'secret', `secret not like 'sealed:v1:%'`, (r) => seal(r.secret));
  await rewrite(knex, 'setup_intents', 'id', 'client_secret', `client_secret is not null and client_secret not like 'sealed:v1:%'`, (r) => seal(r.client_secret));
  // The same shape runtime/idempotency.ts stores: the id beside the sealed response.
  await knex.raw(`alter table idempotency_keys add column if not exists migrating_key text`);
  await knex.raw(`update idempotency_keys set migrating_key = credential_id || ' ' || key
    where response is not null and not (jsonb_typeof(response) = 'object' and jsonb_exists(response, 'sealed'))`);
  await rewrite(knex, 'idempotency_keys', 'migrating_key', 'response', 'migrating_key is not null', (r) => {
    const body = r.response;
    const id = body && typeof body === 'object' && 'id' in body ? body.id : undefined;
    return { ...(id === undefined ? {} : { id }), sealed: seal(JSON.stringify(body)) };
  }, 'jsonb');
  await knex.raw(`alter table idempotency_keys drop column migrating_key`);

  await knex.raw(`update events set data = data || '{"tracking_url": null, "claim_url": null}'::jsonb where type like 'transfer.%' and jsonb_typeof(data) = 'object'`);
  await knex.raw(`update events set data = jsonb_set(data, '{next_action}', (data -> 'next_action') - 'redirect_url')
    where type like 'setup_intent.%' and jsonb_exists(data -> 'next_action', 'redirect_url')`);
  await knex.raw(`update events set data = data #- '{next_action,redirect_to_url,url}' where type like 'payment.%' and jsonb_exists(data -> 'next_action' -> 'redirect_to_url', 'url')`);
}

export async function down(knex: Knex): Promise<void> {
  throw new Error(`510_secrets_at_rest cannot be undone: only the hashes of claim codes, receipt tokens and OAuth states are kept (${knex.client.config.client})`);
}
