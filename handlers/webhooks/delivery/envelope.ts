// What a subscription receives: the event in an envelope, its data rendered at the subscription's pinned version.
// Unpinned subscriptions keep the earliest payloads; pins from 2026-08-14 name the account `account_id`, earlier
// ones `company_id` (version flag webhook_envelope_account_id). Unpinned ad payloads say external_accounts (the seed's
// Events 6).
import { renderAt } from '../../../runtime/render.js';
import { defaultVersion, flagOn, versionOn } from '../../../runtime/versions.js';
import { specData } from '../../../generated/spec-data.js';
import { v2Settings } from '../../../generated/v2-routes.js';
import { fillHiddenAt } from '../../../runtime/plain/hidden-fields.js';
import type { Knex } from 'knex';
import { unpinnedAdPayload } from '../../ads/index.js';

export interface EventRow {
  id: string;
  type: string;
  account_id: string | null;
  data: unknown;
  created_at: string;
  /** a test event (POST /webhooks/{id}/test): every format's payload then carries "test": true */
  test?: boolean;
}

/** The test mark a payload carries, after the event's id: nothing for a real event. */
export const testMark = (event: EventRow) => (event.test ? { test: true } : {});

const versionOf = (pin: string | null) => versionOn(pin ?? defaultVersion()) ?? defaultVersion();

/** Fields the head hides (field_hidden) that the payload's version shows are not in the event's data (it is the
 * head's shape): they are read now, as they are at delivery, like any response at that version. `legacy`: a v2 or v5
 * subscription, whose data is at the pre-versioning model (the v2 render version). */
export async function fillHiddenForPayload(db: Knex, event: EventRow, pin: string | null, legacy: boolean): Promise<void> {
  const schema = (specData.events as Record<string, string>)[event.type];
  if (schema) await fillHiddenAt(db, schema, legacy ? v2Settings.renderVersion : versionOf(pin), [event.data]);
}

export function envelope(event: EventRow, pin: string | null): string {
  const version = versionOf(pin);
  const schema = (specData.events as Record<string, string>)[event.type];
  const data = schema ? renderAt(schema, event.data, version) : event.data;
  const accountKey = flagOn(version, specData.versionFlags.webhook_envelope_account_id) ? 'account_id' : 'company_id';
  return JSON.stringify({
    id: event.id,
    ...testMark(event),
    type: event.type,
    api_version_date: pin,
    created_at: event.created_at,
    [accountKey]: event.account_id,
    data: pin === null ? unpinnedAdPayload(schema, data) : data,
  });
}
