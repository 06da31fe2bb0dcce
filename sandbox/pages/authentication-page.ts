// The sandbox's 3-D Secure page: what next_action.redirect_to_url (payments) and next_action.redirect_url (setup
// intents) point at. The buyer's browser shows it without credentials (the single-use secret in the URL is the
// credential) and finishes the step with one of two buttons, exactly as POST .../confirm_action does; then the
// browser goes to the return_url, with the outcome in its query, or sees the outcome here.
import type { Knex } from 'knex';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { ExtraRoute } from '../../runtime/app.js';
import { effectsOn, type Effects } from '../../generated/effects.js';
import { inTransaction } from '../../runtime/request-db.js';
import { finishPaymentAuthentication } from '../../handlers/payments/index.js';
import { finishSetupIntentAuthentication } from '../../handlers/setup_intents/index.js';
import { money } from '../../runtime/money.js';
import { formatMoney } from '../../handlers/shared/money.js';
import { AUTHENTICATION_PATH } from '../../handlers/shared/authentication-link.js';
import { hashSecret } from '../../runtime/credentials.js';
import { escapeHtml } from '../../runtime/html.js';
import { page } from '../../handlers/shared/html.js';

type Outcome = 'succeed' | 'fail';

/** A payment or setup intent waiting on its buyer. */
interface Step {
  /** the return_url query parameter naming it */
  param: 'payment_id' | 'setup_intent_id';
  /** the waiting row, locked when `forUpdate` */
  find(db: Knex, token: string, forUpdate: boolean): Promise<Record<string, any> | undefined>;
  /** what the buyer is asked to approve */
  describe(row: Record<string, any>, seller: string): string;
  finish(fx: Effects, row: Record<string, any>, outcome: Outcome): Promise<{ succeeded: boolean }>;
}

const card = (instrument: { brand: string | null; last4: string } | null) =>
  (instrument ? `your ${escapeHtml(instrument.brand ?? 'card')} ending ${escapeHtml(instrument.last4)}` : 'your card');


const waiting = (table: string) => (db: Knex, token: string, forUpdate: boolean) => {
  const q = db(table).where({ authentication_token: hashSecret(token), status: 'requires_action' }).first();
  return forUpdate ? q.forUpdate() : q;
};

const STEPS: Step[] = [
  {
    param: 'payment_id',
    find: waiting('payments'),
    describe: (row, seller) => `${escapeHtml(seller)} asks you to confirm a payment of <strong>${formatMoney(money(Number(row.total), row.currency))}</strong> with ${card(row.payment_instrument)}.`,
    finish: async (fx, row, outcome) => ({ succeeded: (await finishPaymentAuthentication(fx, row as never, outcome)).status !== 'failed' }),
  },
  {
    param: 'setup_intent_id',
    find: waiting('setup_intents'),
    describe: (row, seller) => `${escapeHtml(seller)} asks you to confirm saving ${card(row.payment_instrument)} for later payments.`,
    finish: async (fx, row, outcome) => ({ succeeded: (await finishSetupIntentAuthentication(fx, row as never, outcome)).status === 'succeeded' }),
  },
];

async function findStep(db: Knex, token: string, forUpdate: boolean) {
  if (!/^[A-Za-z0-9]{32}$/.test(token)) return undefined;
  for (const step of STEPS) {
    const row = await step.find(db, token, forUpdate);
    if (row) return { step, row };
  }
  return undefined;
}

function gone(ctx: Context): void {
  ctx.status = 404;
  ctx.type = 'text/html';
  ctx.body = page('Link no longer valid', '<p>This authentication link is not valid: the step was already finished, or it never existed.</p>');
}

async function showStep(ctx: Context, db: Knex): Promise<void> {
  const found = await findStep(db, ctx.params.token, false);
  if (!found) return gone(ctx);
  const seller = (await db('accounts').where({ id: found.row.account_id }).first('title'))?.title ?? 'The seller';
  ctx.type = 'text/html';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = page('Confirm it is you', `
    <p>${found.step.describe(found.row, seller)}</p>
    <form method="post">
      <button type="submit" name="outcome" value="succeed">Complete authentication</button>
      <button type="submit" name="outcome" value="fail" class="secondary">Fail authentication</button>
    </form>
    <p class="note">Sandbox: this page stands in for the card issuer's 3-D Secure check. No bank is contacted.</p>`);
}

async function readOutcome(ctx: Context): Promise<Outcome | null> {
  if (ctx.request.type !== 'application/x-www-form-urlencoded') return null;
  const text = (await getRawBody(ctx.req, { limit: 4096, length: ctx.request.length })).toString('utf8');
  const outcome = new URLSearchParams(text).get('outcome');
  return outcome === 'succeed' || outcome === 'fail' ? outcome : null;
}

async function finishStep(ctx: Context, db: Knex): Promise<void> {
  const outcome = await readOutcome(ctx);
  if (!outcome) {
    ctx.status = 400;
    ctx.type = 'text/html';
    ctx.body = page('Choose an outcome', '<p>Send the form with outcome <code>succeed</code> or <code>fail</code>.</p>');
    return;
  }
  const done = await inTransaction(db, async (trx) => {
    const found = await findStep(trx, ctx.params.token, true);
    if (!found) return undefined;
    const { succeeded } = await found.step.finish(effectsOn(trx), found.row, outcome);
    return { param: found.step.param, id: found.row.id as string, returnUrl: found.row.return_url as string | null, succeeded };
  });
  if (!done) return gone(ctx);
  const result = done.succeeded ? 'succeeded' : 'failed';
  if (done.returnUrl) {
    const back = new URL(done.returnUrl);
    back.searchParams.set(done.param, done.id);
    back.searchParams.set('authentication', result);
    ctx.redirect(back.toString());
    ctx.status = 303;
    return;
  }
  ctx.type = 'text/html';
  ctx.body = page(done.succeeded ? 'Authentication complete' : 'Authentication failed',
    `<p>${done.succeeded ? 'You confirmed it. You can close this page.' : 'The step was refused. You can close this page.'}</p>`);
}

export const authenticationRoutes: ExtraRoute[] = [
  { method: 'GET', path: `${AUTHENTICATION_PATH}/:token`, secretParams: ['token'], handle: showStep },
  { method: 'POST', path: `${AUTHENTICATION_PATH}/:token`, secretParams: ['token'], handle: finishStep },
];
