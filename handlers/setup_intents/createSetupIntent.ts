// Written by hand, not declared plain: seals the card details and queues the saving (or saves at once for older versions).
import type { Handler, HandlerContext } from '../../generated/handler.js';
import type { Operations } from '../../generated/types.js';
import { seal } from '../../runtime/sealed-secrets.js';
import { newId, randomToken } from '../../runtime/ids.js';
import { SAVE_SETUP_INTENT, saveSetupIntent } from './save-setup-intent.js';
import { setupSource } from './setup-intent-source.js';
import { setupIntentRows, setupIntentView } from './setup-intent-view.js';

/** Writes a setup intent, processing, and queues its saving (or saves it at once for versions before 2026-08-28);
 * returns its id. POST /setup_intents and the hosted checkout page (handlers/checkout) both start one here. */
export async function startSetupIntent(ctx: Pick<HandlerContext, 'db' | 'flag' | 'addJob'>,
  body: Operations['createSetupIntent']['input']['body']): Promise<string> {
  const source = await setupSource(ctx.db, body);
  const id = newId('seti_');
  await ctx.db('setup_intents').insert({
    id,
    account_id: body.account_id,
    member_id: source.memberId,
    user_id: source.userId,
    payment_method_id: source.paymentMethodId,
    confirmation_token_id: source.confirmationTokenId,
    checkout_configuration_id: body.checkout_configuration_id ?? null,
    status: 'processing',
    return_url: body.return_url ?? null,
    payment_instrument: source.instrument ? JSON.stringify(source.instrument) : null,
    client_secret: seal(`${id}_secret_${randomToken(24)}`),
    created_via_api: true,
  });
  if (ctx.flag('setup_intents_saved_in_background')) {
    await ctx.addJob(SAVE_SETUP_INTENT, { setup_intent_id: id }, { jobKey: `${SAVE_SETUP_INTENT}:${id}` });
  } else {
    await saveSetupIntent(ctx.db, id);
  }
  return id;
}

/** POST /setup_intents: created processing; saved by the worker, or right here for versions before 2026-08-28. */
export const createSetupIntent: Handler<'createSetupIntent'> = async ({ body }, ctx) => {
  const id = await startSetupIntent(ctx, body);
  // The creator holds payment:charge on the account (the runtime checked it), so it sees the secret.
  return setupIntentView(await setupIntentRows(ctx.db).where('si.id', id).first(), true);
};
