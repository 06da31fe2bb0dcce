// Written by hand, not declared plain: connected or business accounts with their owner and referral (account-service.ts).
import type { Handler, HandlerContext } from '../../generated/handler.js';
import type { CreateAccountInput } from '../../generated/types.js';
import { Access } from '../../runtime/access.js';
import { forbidden, invalid } from '../../runtime/errors.js';
import { externalIdOf, insertAccount } from './account-service.js';
import { mergeMetadata } from '../../runtime/metadata.js';
import { checkBlueprint, queueSiteDeployment } from './account-sites.js';
import { loadAccountView, viewOptions } from './account-view.js';

type Body = CreateAccountInput['body'];

interface Creator {
  parentId: string | null;
  ownerUserId: string | null;
  email: string;
  country: string | null;
}

/** API keys create connected accounts under their own account; user tokens create business accounts they own. */
async function creator(ctx: HandlerContext, body: Body): Promise<Creator> {
  const p = ctx.principal;
  if (p.kind === 'api_key') {
    if (!ctx.access.holds('company:create_child')) {
      throw forbidden('Creating a connected account needs the company:create_child permission on this API key');
    }
    if (!body.email) throw invalid('email is required when an account API key creates a connected account', 'email');
    const parent = await ctx.db('accounts').where({ id: p.accountId! }).first('id', 'country');
    return { parentId: parent.id, ownerUserId: null, email: body.email, country: body.country ?? parent.country };
  }
  if (!ctx.access.holds('company:create')) throw forbidden('Creating an account needs the company:create permission');
  const user = await ctx.db('users').where({ id: p.userId! }).first('id', 'email');
  return { parentId: null, ownerUserId: user.id, email: body.email ?? user.email, country: body.country ?? null };
}

/** affiliate_code names the referring partner by username; stored as that user's own spelling. */
async function referrer(ctx: HandlerContext, code: string | null | undefined): Promise<string | null> {
  if (code === undefined || code === null) return null;
  const user = await ctx.db('users').whereRaw('lower(username) = lower(?)', [code]).first('username');
  if (!user) throw invalid(`No partner has the username '${code}'`, 'affiliate_code');
  return user.username;
}

/** POST /accounts */
export const createAccount: Handler<'createAccount'> = async ({ body }, ctx) => {
  const who = await creator(ctx, body);
  const affiliateCode = await referrer(ctx, body.affiliate_code);
  if (body.blueprint_id) await checkBlueprint(ctx, body.blueprint_id);
  const metadata = mergeMetadata({}, body.metadata ?? {});
  const row = await insertAccount(ctx.db, {
    title: body.title ?? externalIdOf(metadata) ?? who.email,
    email: who.email,
    country: who.country,
    parentId: who.parentId,
    ownerUserId: who.ownerUserId,
    metadata,
    sendCustomerEmails: body.send_customer_emails,
    affiliateCode,
    blueprintId: body.blueprint_id ?? null,
  });
  if (body.blueprint_id) await queueSiteDeployment(ctx, row.id, body.blueprint_id);
  // The new account exists only in this transaction, so the caller's access to it is looked up there too.
  const view = (await loadAccountView(ctx.db, new Access(ctx.db, ctx.principal), row.id, viewOptions(ctx)))!;
  await ctx.emit('account.created', row.id, view);
  return view;
};
