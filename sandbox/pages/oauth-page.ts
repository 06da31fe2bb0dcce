// The sandbox network's authorize page: where authorize_url (POST /external_accounts/connect) points. It plays the
// provider's consent screen: the owner names the profiles to grant and allows, or denies; the single-use state in
// the URL is the only credential. Then the browser goes to the connection's redirect_url with the outcome in its
// query (OAuth's convention: error=access_denied on a refusal), or sees the outcome here.
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { ExtraRoute } from '../../runtime/app.js';
import { effectsOn } from '../../generated/effects.js';
import { inTransaction } from '../../runtime/request-db.js';
import { answerConnection, AUTHORIZE_PATH, HANDLE, pendingConnection, type Answer } from '../../handlers/external_accounts/index.js';
import type { Knex } from 'knex';
import { escapeHtml } from '../../runtime/html.js';
import { page } from '../../handlers/shared/html.js';

const PROVIDER = { meta_business: 'Meta Business', tiktok: 'TikTok' } as const;

function html(ctx: Context, status: number, title: string, body: string): void {
  ctx.status = status;
  ctx.type = 'text/html';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = page(title, body);
}

const gone = (ctx: Context) => html(ctx, 404, 'Link no longer valid',
  '<p>This authorization link is not valid: it was already answered, or it never existed.</p>');

async function showConsent(ctx: Context, db: Knex): Promise<void> {
  const c = await pendingConnection(db, String(ctx.query.state ?? ''));
  if (!c) return gone(ctx);
  if (c.expired) return html(ctx, 410, 'Link expired', '<p>This authorization link has expired. Start connecting again.</p>');
  const seller = (await db('accounts').where({ id: c.account_id }).first('title'))?.title ?? 'A business';
  const provider = PROVIDER[c.platform as keyof typeof PROVIDER];
  const instagram = c.platform === 'meta_business'
    ? '<label>Instagram profile it owns (optional) <input name="instagram_username"></label>' : '';
  html(ctx, 200, `Connect to ${provider}`, `
    <p>${escapeHtml(seller)} asks to manage your ${provider} profiles${c.scopes.includes('advertise') ? ' and run ads under them' : ''}.</p>
    <form method="post">
      <label>${c.platform === 'meta_business' ? 'Facebook page' : 'TikTok profile'} <input name="username" required></label>
      ${instagram}
      <button type="submit" name="decision" value="allow">Allow</button>
      <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
    </form>
    <p class="note">Sandbox: this page stands in for the network's consent screen. No network is contacted.</p>`);
}

/** The form's answer, or a sentence saying what is wrong with it. */
async function readAnswer(ctx: Context): Promise<Answer | string> {
  if (ctx.request.type !== 'application/x-www-form-urlencoded') return 'Send the form (application/x-www-form-urlencoded).';
  const form = new URLSearchParams((await getRawBody(ctx.req, { limit: 4096, length: ctx.request.length })).toString('utf8'));
  const decision = form.get('decision');
  if (decision === 'deny') return { decision };
  if (decision !== 'allow') return 'Send decision allow or deny.';
  const username = form.get('username') ?? '';
  const instagram = form.get('instagram_username') || null;
  if (!HANDLE.test(username)) return 'username must be a handle of 1 to 30 letters, digits, _ or .';
  if (instagram !== null && !HANDLE.test(instagram)) return 'instagram_username must be a handle of 1 to 30 letters, digits, _ or .';
  return { decision, username, instagram_username: instagram };
}

async function answer(ctx: Context, db: Knex): Promise<void> {
  const state = String(ctx.query.state ?? '');
  const read = await readAnswer(ctx);
  if (typeof read === 'string') return html(ctx, 400, 'Answer incomplete', `<p>${escapeHtml(read)}</p>`);
  const outcome = await inTransaction(db, (trx) => answerConnection(effectsOn(trx), state, read));
  if (!outcome) return gone(ctx);
  if (outcome.redirect_url) {
    const back = new URL(outcome.redirect_url);
    if (outcome.error) back.searchParams.set('error', outcome.error);
    else {
      back.searchParams.set('external_account_id', outcome.external_account_id!);
      back.searchParams.set('status', 'connecting');
    }
    ctx.redirect(back.toString());
    ctx.status = 303;
    return;
  }
  if (outcome.error === 'expired') return html(ctx, 410, 'Link expired', '<p>This authorization link has expired. Start connecting again.</p>');
  html(ctx, 200, outcome.error ? 'Not connected' : 'Connected', outcome.error
    ? `<p>Nothing was connected (${escapeHtml(outcome.error)}). You can close this page.</p>`
    : `<p>You allowed it: ${escapeHtml(outcome.external_account_id!)} is connecting. You can close this page.</p>`);
}

export const oauthRoutes: ExtraRoute[] = [
  { method: 'GET', path: AUTHORIZE_PATH, handle: showConsent },
  { method: 'POST', path: AUTHORIZE_PATH, handle: answer },
];
