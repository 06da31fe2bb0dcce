// transfers rows, joined with both sides' profiles in the same statement, -> the Transfer resource.
import type { Knex } from 'knex';
import type { Transfer, TransferParty } from '../../generated/types.js';
import { money } from '../../runtime/money.js';
import { query } from '../../runtime/request-db.js';
import { publicBaseUrl } from '../shared/public-url.js';
import { claimCode, claimCodeHash, trackingToken } from './transfer-secrets.js';
import type { Tables } from '../../generated/rows.js';

/** A side's profile columns (PROFILE_COLUMNS): an account's or a user's, null for the other kind. */
type Profile<S extends string> = {
  [C in 'title' | 'logo_url' | 'route' | 'name' | 'username' | 'picture' as `${S}_${C}`]: string | null;
};

/** A row of transfers: its type and status are text this area writes with the API's values, its metadata the body's. */
export type TransferTableRow = Omit<Tables['transfers'], 'type' | 'status' | 'metadata'>
  & { type: 'balance' | 'claim_link'; status: Transfer['status']; metadata: Transfer['metadata'] };

/** A transfer's row with both sides' profiles (TRANSFER_COLUMNS). */
export type TransferRow = TransferTableRow & Profile<'o'> & Profile<'d'>;

/** Where the public pages live, outside the API prefix (handlers/transfers/transfer-pages.ts). */
export const CLAIM_PATH = '/claim';
export const TRACKING_PATH = '/transfers/track';

// A side is an account or a user: one of each pair of joins finds it (ids are prefixed, so never both).
const PROFILE_COLUMNS = ['o', 'd'].map((side) => `${side}a.title as ${side}_title, ${side}a.logo_url as ${side}_logo_url,
  ${side}a.route as ${side}_route, ${side}u.name as ${side}_name, ${side}u.username as ${side}_username,
  ${side}u.profile_picture_url as ${side}_picture`).join(',\n  ');

/** The from clause reading transfer rows of `source` (a table or a subquery) as t, with both profiles. */
export const transferFrom = (source = 'transfers') => `${source} t
  left join accounts oa on oa.id = t.origin_id left join users ou on ou.id = t.origin_id
  left join accounts da on da.id = t.destination_id left join users du on du.id = t.destination_id`;
export const TRANSFER_COLUMNS = `t.*, ${PROFILE_COLUMNS}`;

const BY_ID = `select ${TRANSFER_COLUMNS} from ${transferFrom()} where t.id = $1`;

export async function readTransferRow(db: Knex, id: string): Promise<TransferRow | undefined> {
  return (await query<TransferRow>(db, BY_ID, [id]))[0];
}

export async function loadTransferView(db: Knex, id: string): Promise<Transfer> {
  const row = await readTransferRow(db, id);
  if (!row) throw new Error(`transfer ${id} vanished after it was written`);
  return transferView(row);
}

function party(row: TransferRow, side: 'o' | 'd', id: string | null): TransferParty | null {
  if (id === null) return null;
  if (id.startsWith('user_')) {
    return { id, name: row[`${side}_name`] ?? row[`${side}_username`], logo_url: row[`${side}_picture`], route: null, username: row[`${side}_username`] };
  }
  return { id, name: row[`${side}_title`], logo_url: row[`${side}_logo_url`], route: row[`${side}_route`], username: null };
}

export const trackingUrl = (transferId: string) => `${publicBaseUrl()}${TRACKING_PATH}/${trackingToken(transferId)}`;

export function transferView(row: TransferRow): Transfer {
  const m = (amount: number | string) => money(Number(amount), row.currency);
  const link = row.type === 'claim_link';
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    amount: m(row.amount),
    fee: m(row.fee),
    origin: party(row, 'o', row.origin_id)!,
    origin_ledger_account_id: row.origin_ledger_id,
    destination: party(row, 'd', row.destination_id),
    destination_ledger_account_id: row.destination_ledger_id,
    claim_link_id: row.claim_link_id,
    // A link made before codes were derived has a code nobody can show again (only its hash is kept): null.
    claim_url: link && row.claim_code === claimCodeHash(row.id) ? `${publicBaseUrl()}${CLAIM_PATH}/${claimCode(row.id)}` : null,
    redeemable_count: link ? row.redeemable_count : null,
    claimed_count: link ? row.claimed_count : null,
    expires_at: row.expires_at,
    notes: row.notes,
    metadata: row.metadata,
    tracking_url: trackingUrl(row.id),
    failed_at: row.failed_at,
    funds_returned_at: row.funds_returned_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
