// The purchase's result page (checkout-result.ts), for the browser that bought: it follows the payment or setup intent the checkout made. Waiting
// on the buyer: on to the 3-D Secure page. Being collected or saved in the background: the page reloads itself
// every second. Done: on to the configuration's redirect_url with payment_id (or setup_intent_id) in its query, or a
// success page when there is none. Refused: why, and a link back to the checkout to try another card.
import type { Context } from 'koa';
import type { Knex } from 'knex';
import { money } from '../../runtime/money.js';
import { escapeHtml } from '../../runtime/html.js';
import { page } from '../shared/html.js';
import { authenticationUrl } from '../shared/authentication-link.js';
import { configurationPurchaseUrl, variantPurchaseUrl } from '../checkout_configurations/index.js';
import { formatMoney } from '../shared/money.js';
import { mayShowResult } from './checkout-result.js';

type Row = Record<string, any>;

function html(ctx: Context, status: number, title: string, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = page(title, body);
}

function go(ctx: Context, url: string): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect(url);
  ctx.status = 303;
}

const WAIT = `<script>setTimeout(() => location.reload(), 1000);</script>`;

/** Where a refused buyer starts again: the link they bought through. */
async function checkoutLink(db: Knex, row: Row): Promise<string> {
  if (row.checkout_configuration_id) return configurationPurchaseUrl({ id: row.checkout_configuration_id });
  const plan = await db('plans').where({ id: row.plan_id }).first('id', 'short_link');
  return variantPurchaseUrl(plan);
}

async function finish(ctx: Context, db: Knex, row: Row, param: 'payment_id' | 'setup_intent_id', success: string): Promise<void> {
  const config = row.checkout_configuration_id
    ? await db('checkout_configurations').where({ id: row.checkout_configuration_id }).first('redirect_url') : null;
  if (config?.redirect_url) {
    const next = new URL(config.redirect_url);
    next.searchParams.set(param, row.id);
    return go(ctx, next.toString());
  }
  html(ctx, 200, param === 'payment_id' ? 'Payment complete' : 'Card saved', `${success}
    <p class="note">Reference: <code id="${param === 'payment_id' ? 'payment-id' : 'setup-intent-id'}">${escapeHtml(row.id)}</code>. You can close this page.</p>`);
}

async function paymentResult(ctx: Context, db: Knex, row: Row): Promise<void> {
  const seller = (await db('accounts').where({ id: row.account_id }).first('title')).title as string;
  switch (row.status) {
    case 'requires_action': return go(ctx, authenticationUrl(row.id));
    case 'processing': return html(ctx, 200, 'Processing your payment', `<p>Your bank is being asked. This page updates itself.</p>${WAIT}`);
    case 'failed':
    case 'canceled':
      return html(ctx, 200, 'Payment failed', `<p id="error" class="error">Your payment to ${escapeHtml(seller)} did not go through:
        ${escapeHtml(row.failure_message ?? 'it was canceled')}${row.failure_code ? ` (${escapeHtml(row.failure_code)})` : ''}.
        Nothing was charged.</p><p><a id="retry" href="${escapeHtml(await checkoutLink(db, row))}">Try another card</a></p>`);
    default:
      return finish(ctx, db, row, 'payment_id',
        `<p>You paid <strong>${escapeHtml(formatMoney(money(Number(row.total), row.currency)))}</strong> to ${escapeHtml(seller)}.</p>`);
  }
}

async function setupResult(ctx: Context, db: Knex, row: Row): Promise<void> {
  const seller = (await db('accounts').where({ id: row.account_id }).first('title')).title as string;
  const card = row.payment_instrument ? `${row.payment_instrument.brand ?? 'card'} ending ${row.payment_instrument.last4}` : 'card';
  switch (row.status) {
    case 'requires_action': return go(ctx, authenticationUrl(row.id));
    case 'processing': return html(ctx, 200, 'Saving your card', `<p>Your bank is being asked. This page updates itself.</p>${WAIT}`);
    case 'succeeded':
      return finish(ctx, db, row, 'setup_intent_id', `<p>Your ${escapeHtml(card)} is saved with ${escapeHtml(seller)}. Nothing was charged.</p>`);
    default:
      return html(ctx, 200, 'Card not saved', `<p id="error" class="error">Your ${escapeHtml(card)} was not saved:
        ${escapeHtml(row.last_setup_error?.message ?? 'it was canceled')}.</p>
        <p><a id="retry" href="${escapeHtml(configurationPurchaseUrl({ id: row.checkout_configuration_id }))}">Try another card</a></p>`);
  }
}

export async function showResult(ctx: Context, db: Knex): Promise<void> {
  const paymentId = typeof ctx.query.payment_id === 'string' ? ctx.query.payment_id : null;
  const setupId = typeof ctx.query.setup_intent_id === 'string' ? ctx.query.setup_intent_id : null;
  const row = paymentId ? await db('payments').where({ id: paymentId }).first()
    : setupId ? await db('setup_intents').where({ id: setupId }).first() : undefined;
  if (!row || !mayShowResult(ctx, row.id)) {
    return html(ctx, 404, 'Link not valid', '<p>There is no checkout result to show here: it belongs to the browser that bought.</p>');
  }
  return paymentId ? paymentResult(ctx, db, row) : setupResult(ctx, db, row);
}
