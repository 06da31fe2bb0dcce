// Where the checkout page sends the buyer once the card is posted: a result page that follows the payment (or the
// setup intent) to its end, at <base>/checkout/done?payment_id=<id> (or setup_intent_id). The id alone shows
// nothing: the browser that bought holds a cookie set by the purchase, a secret made again from the row's id
// (runtime/sealed-secrets.ts derivedSecret), so no table and no URL holds it. The bare page is also the 3-D Secure
// step's return_url, to which the authentication page adds the id and the step's outcome.
import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { derivedSecret } from '../../runtime/sealed-secrets.js';
import { publicBaseUrl } from '../shared/public-url.js';
import { CHECKOUT_PATH } from '../checkout_configurations/index.js';

export const RESULT_PATH = `${CHECKOUT_PATH}/done`;

/** How long the buying browser may look at its result page. */
const COOKIE_SECONDS = 24 * 60 * 60;

const proofOf = (id: string) => derivedSecret('checkout result', id);
const cookieName = (id: string) => `checkout_${id}`;

/** The result page without its query: the return_url of a 3-D Secure step. */
export const resultUrl = () => `${publicBaseUrl()}${RESULT_PATH}`;

/** Lets this browser see the result of the payment or setup intent `id`; returns the page's path. */
export function grantResult(ctx: Context, param: 'payment_id' | 'setup_intent_id', id: string): string {
  ctx.cookies.set(cookieName(id), proofOf(id), { httpOnly: true, sameSite: 'lax', path: RESULT_PATH, maxAge: COOKIE_SECONDS * 1000, overwrite: true });
  return `${RESULT_PATH}?${param}=${encodeURIComponent(id)}`;
}

/** Whether this browser holds the result cookie of `id`. */
export function mayShowResult(ctx: Context, id: string): boolean {
  const got = Buffer.from(ctx.cookies.get(cookieName(id)) ?? '');
  const want = Buffer.from(proofOf(id));
  return got.length === want.length && timingSafeEqual(got, want);
}
