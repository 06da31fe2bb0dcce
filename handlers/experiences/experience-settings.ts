// What an experience is powered by and shown with: the app (the account's own or a live one) and the logo (a ready
// image file the caller uploaded). Each check answers the column to write or a 4xx naming its field.
import type { Knex } from 'knex';
import type { HandlerContext } from '../../generated/handler.js';
import { invalid, notFound } from '../../runtime/errors.js';
import { readyFile } from '../files/index.js';

/** The app's id when the account may have an experience powered by it: its own app, or any live one. */
export async function appForExperience(db: Knex, accountId: string, appId: string): Promise<string> {
  const app = await db('apps').where({ id: appId }).andWhere((w) => w.where({ account_id: accountId }).orWhere({ status: 'live' })).first('id');
  if (!app) throw notFound('app', appId, 'app_id');
  return app.id;
}

/** The logo's file id (null removes it). */
export async function logoFile(ctx: HandlerContext, logo: { id: string } | null): Promise<string | null> {
  if (logo === null) return null;
  const file = await readyFile(ctx, logo.id, 'logo.id');
  if (!file.content_type.startsWith('image/')) throw invalid(`The logo must be an image; ${logo.id} is ${file.content_type}`, 'logo.id');
  return file.id;
}
