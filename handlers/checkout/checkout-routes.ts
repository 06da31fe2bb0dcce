// The hosted checkout page: what purchase_url points at (handlers/checkout_configurations/purchase-url.ts). Served
// without credentials beside the API, like the sandbox's 3-D Secure page: GET shows the seller, what is sold and its
// price (?promo_code= and ?country= re-price it); POST buys it with the card's confirmation token; the result page
// follows the purchase to its end (checkout-done.ts).
import type { Context } from 'koa';
import type { Knex } from 'knex';
import getRawBody from 'raw-body';
import type { ExtraRoute } from '../../runtime/app.js';
import { ApiError } from '../../runtime/errors.js';
import { withConnection } from '../../runtime/request-db.js';
import { onCredentialClock } from '../../runtime/request-clock.js';
import { CHECKOUT_PATH } from '../checkout_configurations/index.js';
import { escapeHtml } from '../../runtime/html.js';
import { page } from '../shared/html.js';
import { checkoutTarget, isRefusal, type CheckoutTarget, type LinkKind } from './checkout-target.js';
import { choicesOf, quote, type BuyerChoices } from './checkout-price.js';
import { checkoutPage } from './checkout-page.js';
import { purchase, readPosted } from './checkout-submit.js';
import { showResult } from './checkout-done.js';
import { grantResult, RESULT_PATH } from './checkout-result.js';

function html(ctx: Context, status: number, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
}

async function target(ctx: Context, db: Knex, kind: LinkKind): Promise<CheckoutTarget | undefined> {
  const found = await checkoutTarget(db, kind, String(ctx.params.ref));
  if (!isRefusal(found)) return found;
  html(ctx, found.status, page(found.title, `<p id="error" class="error">${escapeHtml(found.message)}</p>`));
  return undefined;
}

/** The page, priced with `choices`; a refused price (a bad promo code or country) is shown, with the status. */
async function render(ctx: Context, db: Knex, t: CheckoutTarget, choices: BuyerChoices, failure: ApiError | null, email?: string) {
  const priced = t.variant ? await quote(db, t, choices) : { price: null, error: null };
  // A refused choice is dropped from the form, so that paying charges what the page shows.
  const kept = priced.error ? {} : choices;
  const shownPrice = priced.error && t.variant ? await quote(db, t, {}) : priced;
  const error = failure ?? priced.error;
  html(ctx, error ? error.status : 200, checkoutPage({ target: t, choices: kept, price: shownPrice.price, error: error?.message ?? null, email }));
}

/** Runs the page's work at the seller's time, as a request with the account's credentials would: on its sandbox clock
 * when it has one (runtime/request-clock.ts), so that tokens, promo code expiry and the payment are dated alike. */
const atSellersTime = (work: (ctx: Context, db: Knex, t: CheckoutTarget) => Promise<void>) => (kind: LinkKind) =>
  async (ctx: Context, pool: Knex) => {
    const t = await target(ctx, pool, kind);
    if (!t) return;
    if (!t.account.clock_id) return work(ctx, pool, t);
    await withConnection(pool, (conn) => onCredentialClock(conn, t.account.clock_id, () => work(ctx, conn, t)));
  };

const show = atSellersTime(async (ctx, db, t) => {
  await render(ctx, db, t, choicesOf((n) => (typeof ctx.query[n] === 'string' ? ctx.query[n] as string : undefined)), null);
});

const buy = atSellersTime(async (ctx, db, t) => {
  if (ctx.request.type !== 'application/x-www-form-urlencoded') {
    return html(ctx, 400, page('Send the form', '<p>Send the checkout form (application/x-www-form-urlencoded).</p>'));
  }
  const posted = readPosted(new URLSearchParams((await getRawBody(ctx.req, { limit: 8192, length: ctx.request.length })).toString('utf8')));
  try {
    const made = await purchase(db, t, posted);
    ctx.redirect(grantResult(ctx, made.param, made.id));
    ctx.status = 303;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    await render(ctx, db, t, posted.choices, e, posted.email);
  }
});

export const checkoutRoutes: ExtraRoute[] = [
  ...(['p', 'q', 'c'] as const).flatMap((kind): ExtraRoute[] => [
    { method: 'GET', path: `${CHECKOUT_PATH}/${kind}/:ref`, handle: show(kind) },
    { method: 'POST', path: `${CHECKOUT_PATH}/${kind}/:ref`, handle: buy(kind) },
  ]),
  { method: 'GET', path: RESULT_PATH, handle: showResult },
];
