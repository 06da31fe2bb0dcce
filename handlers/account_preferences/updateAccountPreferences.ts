// Written by hand, not declared plain: the preferences are an account's stored document, not a row with an id of its own.
import { isDeepStrictEqual } from 'node:util';
import type { Handler } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { loadPreferences, savePreferences } from './preferences-store.js';
import { preferencesView } from './preferences-view.js';
import { applyPreferencesWrite } from './preferences-write.js';
import { applyDurationKey } from './economic-intelligence.js';

/** PATCH /accounts/{account_id}/preferences: changes the fields sent; emits account.preferences.updated on a change. */
export const updateAccountPreferences: Handler<'updateAccountPreferences'> = async ({ path, body }, ctx) => {
  // The account row lock serialises preference writes, including an account's first, which has no document row yet.
  const account = await ctx.db('accounts').where({ id: path.account_id }).forUpdate().first();
  if (!account) throw notFound('account', path.account_id, 'account_id');
  const current = await loadPreferences(ctx.db, account.id);
  const before = await preferencesView(ctx.db, account, current);

  const next = await applyPreferencesWrite(ctx.db, account.id, current, body);
  if (body.economic_intelligence_duration_key !== undefined) {
    await applyDurationKey(ctx.db, account, body.economic_intelligence_duration_key);
  }
  if (!isDeepStrictEqual(next, current)) await savePreferences(ctx.db, account.id, next);

  const after = await preferencesView(ctx.db, await ctx.db('accounts').where({ id: account.id }).first(), next);
  if (!isDeepStrictEqual(after, before)) await ctx.emit('account.preferences.updated', account.id, after);
  return after;
};
