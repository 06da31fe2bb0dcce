// The two pages a transfer links to, served outside the API without credentials: its tracking page (tracking_url,
// behind a random token: anyone holding the link sees the status, nothing more) and a claim link's page
// (claim_url, behind the link's code: what it holds and how to claim it). Claiming itself needs the claimant's
// user token, through POST /transfers/{id}/claim: the page cannot know whose wallet to credit.
import type { Knex } from 'knex';
import type { Context } from 'koa';
import type { ExtraRoute } from '../../runtime/app.js';
import { query } from '../../runtime/request-db.js';
import { hashSecret } from '../../runtime/credentials.js';
import { specData } from '../../generated/spec-data.js';
import { formatMoney } from '../shared/money.js';
import { accountNow } from '../shared/account-time.js';
import { escapeHtml } from '../../runtime/html.js';
import { page } from '../shared/html.js';
import { CLAIM_PATH, TRACKING_PATH, TRANSFER_COLUMNS, transferFrom, transferView, type TransferRow } from './transfer-view.js';

const TOKEN = /^[A-Za-z0-9]{32}$/;

/** The transfer whose secret this is: rows keep only the secret's hash (handlers/transfers/transfer-secrets.ts). */
async function rowBy(db: Knex, column: 'tracking_token' | 'claim_code', token: string): Promise<TransferRow | undefined> {
  if (!TOKEN.test(token)) return undefined;
  return (await query<TransferRow>(db, `select ${TRANSFER_COLUMNS} from ${transferFrom()} where t.${column} = $1`, [hashSecret(token)]))[0];
}

function notFoundPage(ctx: Context, what: string): void {
  ctx.status = 404;
  ctx.type = 'text/html';
  ctx.body = page(`No such ${what}`, `<p>This ${what} link is not valid.</p>`);
}

const line = (label: string, value: string | null) => (value === null ? '' : `<p>${escapeHtml(label)}: <strong>${escapeHtml(value)}</strong></p>`);

async function showTracking(ctx: Context, db: Knex): Promise<void> {
  const row = await rowBy(db, 'tracking_token', ctx.params.token ?? '');
  if (!row) return notFoundPage(ctx, 'transfer');
  const t = transferView(row);
  ctx.type = 'text/html';
  ctx.set('Cache-Control', 'private, no-store');
  ctx.body = page(t.type === 'claim_link' ? 'Claim link' : 'Transfer', [
    line('Status', t.status),
    line(t.type === 'claim_link' ? 'Each share' : 'Amount', formatMoney(t.amount)),
    line('Fee', formatMoney(t.fee)),
    line('From', t.origin.name ?? t.origin.id),
    line('To', t.destination ? t.destination.name ?? t.destination.id : null),
    line('Claimed', t.type === 'claim_link' ? `${t.claimed_count} of ${t.redeemable_count}` : null),
    line('Created', t.created_at),
    line('Expires', t.expires_at),
    line('Failed', t.failed_at),
    line('Funds returned', t.funds_returned_at),
    `<p class="note">${escapeHtml(t.id)}</p>`,
  ].join('\n'));
}

async function showClaimLink(ctx: Context, db: Knex): Promise<void> {
  const code = ctx.params.code ?? '';
  const row = await rowBy(db, 'claim_code', code);
  if (!row) return notFoundPage(ctx, 'claim');
  const t = transferView(row);
  // By the sender's time: the page runs at real time, the link's account may run on a sandbox clock.
  const open = t.status === 'pending' && Date.parse(t.expires_at!) > (await accountNow(db, row.origin_id)).getTime();
  const how = `POST ${specData.basePath}/transfers/${t.id}/claim with your user token and the body {"code": "${code}"}`;
  ctx.type = 'text/html';
  ctx.set('Cache-Control', 'private, no-store');
  ctx.body = page(`${t.origin.name ?? 'Someone'} sent you money`, [
    line('Each claim receives', formatMoney(t.amount)),
    line('Claimed', `${t.claimed_count} of ${t.redeemable_count}`),
    line('Expires', t.expires_at),
    open
      ? `<p>To claim it into your personal wallet: <code>${escapeHtml(how)}</code>.</p>`
      : `<p>This link can no longer be claimed: it is ${escapeHtml(t.status === 'pending' ? 'expired' : t.status)}.</p>`,
    ...(t.destination ? [`<p class="note">Only ${escapeHtml(t.destination.name ?? t.destination.id)} may claim it.</p>`] : []),
  ].join('\n'));
}

export const transferRoutes: ExtraRoute[] = [
  { method: 'GET', path: `${TRACKING_PATH}/:token`, secretParams: ['token'], handle: showTracking },
  { method: 'GET', path: `${CLAIM_PATH}/:code`, secretParams: ['code'], handle: showClaimLink },
];
