// The hosted checkout page's HTML: the seller, what is sold and its price (re-priced by a promo code or a country
// through a plain GET form), and the card form. The card never reaches this server's page routes: the page's script
// turns it into a confirmation token with the account's client id (POST /api/v1/confirmation_tokens, as any
// frontend does) and posts only the token, with the buyer's e-mail and choices, to the page's own POST route.
import { escapeHtml } from '../../runtime/html.js';
import { page } from '../shared/html.js';
import { headVersion } from '../../runtime/versions.js';
import { specData } from '../../generated/spec-data.js';
import type { Price } from '../payments/index.js';
import type { CheckoutTarget, CheckoutVariant } from './checkout-target.js';
import { shown, type BuyerChoices } from './checkout-price.js';

const STYLE = `<style>
  label { display: block; margin: .5rem 0; }
  input { font: inherit; padding: .4rem; width: 100%; box-sizing: border-box; }
  .row { display: flex; gap: .5rem; } .row label { flex: 1; }
  table { width: 100%; border-collapse: collapse; margin: 1rem 0; } td { padding: .2rem 0; } td.amount { text-align: right; }
  tr.total td { font-weight: bold; border-top: 1px solid #ccc; }
  .error { color: #b00020; font-weight: 600; }
</style>`;

function terms(v: CheckoutVariant): string {
  if (v.plan_type === 'one_time') return 'One-time purchase.';
  const renewal = v.renewal_price === null ? '' : ` then ${escapeHtml(shown(Number(v.renewal_price), v.currency))}`;
  const trial = v.trial_period_days ? ` after a ${v.trial_period_days}-day free trial` : '';
  return `Renews${renewal} every ${v.billing_period_days} days${trial}.`;
}

function priceTable(price: Price, choices: BuyerChoices): string {
  const line = (id: string, label: string, amount: number, sign = '') =>
    `<tr id="${id}"><td>${label}</td><td class="amount">${sign}${escapeHtml(shown(amount, price.currency))}</td></tr>`;
  return `<table>
    ${line('price-subtotal', 'Price', price.subtotal)}
    ${price.discount ? line('price-discount', `Promo code ${escapeHtml(choices.promo_code!.toUpperCase())}`, price.discount, '&minus;') : ''}
    ${line('price-tax', choices.country ? `Tax (${escapeHtml(choices.country)})` : 'Tax (choose your country)', price.tax)}
    <tr class="total" id="price-total"><td>Total due today</td><td class="amount">${escapeHtml(shown(price.subtotal - price.discount + price.tax, price.currency))}</td></tr>
  </table>`;
}

const hidden = (name: string, value: string | undefined) => (value ? `<input type="hidden" name="${name}" value="${escapeHtml(value)}">` : '');

// Runs in the buyer's browser: the card becomes a confirmation token, then the form is posted without it.
const SCRIPT = (apiBase: string) => `<script>
(() => {
  const form = document.getElementById('pay');
  const error = document.getElementById('error');
  const value = (id) => document.getElementById(id).value.trim();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button[type=submit]');
    error.textContent = '';
    button.disabled = true;
    try {
      const res = await fetch(${JSON.stringify(`${apiBase}/confirmation_tokens`)}, {
        method: 'POST',
        headers: { 'Authorization': form.dataset.client, 'Content-Type': 'application/json', 'Api-Version-Date': ${JSON.stringify(headVersion())} },
        body: JSON.stringify({ card: { number: value('card-number').replace(/\\s+/g, ''), exp_month: Number(value('card-exp-month')),
          exp_year: Number(value('card-exp-year')), cvc: value('card-cvc') } }),
      });
      const body = await res.json();
      if (!res.ok) throw new Error(body.error ? body.error.message : 'The card was not accepted (' + res.status + ')');
      form.elements.confirmation_token.value = body.id;
      form.submit();
    } catch (e) {
      error.textContent = e.message;
      button.disabled = false;
    }
  });
})();
</script>`;

export interface PageState {
  target: CheckoutTarget;
  choices: BuyerChoices;
  /** the price shown; null in setup mode, or when the choices were refused */
  price: Price | null;
  /** what went wrong, shown above the form */
  error: string | null;
  email?: string;
}

export function checkoutPage({ target, choices, price, error, email }: PageState): string {
  const v = target.variant;
  const seller = `<p id="seller">Sold by <strong>${escapeHtml(target.account.title)}</strong></p>`;
  const what = v
    ? `<p id="product"><strong>${escapeHtml(v.product_title)}</strong>${v.title ? ` — ${escapeHtml(v.title)}` : ''}</p><p>${terms(v)}</p>`
    : `<p id="product">Save a card with ${escapeHtml(target.account.title)} for later payments. Nothing is charged now.</p>`;
  const reprice = v ? `<form id="reprice" method="get" action="${escapeHtml(target.path)}">
      <div class="row">
        <label>Promo code <input name="promo_code" id="promo-code" value="${escapeHtml(choices.promo_code ?? '')}" autocomplete="off"></label>
        <label>Country <input name="country" id="country" value="${escapeHtml(choices.country ?? '')}" placeholder="US" maxlength="2"></label>
      </div>
      <button type="submit" class="secondary" id="apply">Update price</button>
    </form>` : '';
  const total = price ? shown(price.subtotal - price.discount + price.tax, price.currency) : null;
  const action = v ? (total ? `Pay ${escapeHtml(total)}` : 'Pay') : 'Save card';
  const canSubmit = !v || price !== null;
  const form = `<form id="pay" method="post" action="${escapeHtml(target.path)}" data-client="${escapeHtml(target.account.client_id)}">
      <label>E-mail <input type="email" name="email" id="email" required value="${escapeHtml(email ?? '')}"></label>
      <label>Card number <input id="card-number" inputmode="numeric" autocomplete="cc-number" required></label>
      <div class="row">
        <label>Month <input id="card-exp-month" inputmode="numeric" placeholder="12" required></label>
        <label>Year <input id="card-exp-year" inputmode="numeric" placeholder="2030" required></label>
        <label>CVC <input id="card-cvc" inputmode="numeric" placeholder="123" required></label>
      </div>
      <input type="hidden" name="confirmation_token" value="">
      ${hidden('promo_code', choices.promo_code)}${hidden('country', choices.country)}
      <button type="submit" id="pay-button"${canSubmit ? '' : ' disabled'}>${action}</button>
    </form>`;
  return page(v ? v.product_title : 'Save a card', `${STYLE}
    ${seller}
    ${what}
    ${price ? priceTable(price, choices) : ''}
    ${reprice}
    <p id="error" class="error" role="alert">${error ? escapeHtml(error) : ''}</p>
    ${form}
    <p class="note">Sandbox: no card is charged. 4242 4242 4242 4242 succeeds, 4000 0025 0000 3155 asks for 3-D Secure,
      4000 0000 0000 0002 is declined; any future expiry and any CVC.</p>
    ${SCRIPT(specData.basePath)}`);
}
