import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { resources } from '../../generated/resources.js';
import { MEDIA_CURRENCY, priceOf } from './prices.js';
import { postMediaPrice } from './media-ledger.js';
import { generateMediaJob } from './generate.js';

/** POST /media/generate: prices the request, holds the price from the available balance (a 400 insufficient_funds
 * when short, and nothing is made) and queues the generator, all in the request's transaction. */
export const generateMedia: Handler<'generateMedia'> = async ({ body }, ctx) => {
  if (body.type === 'video' && body.duration_seconds === undefined) throw invalid('A video needs duration_seconds', 'duration_seconds');
  if (body.type === 'image' && body.duration_seconds !== undefined) throw invalid('An image has no duration_seconds', 'duration_seconds');
  const resolution = body.resolution ?? 'standard';
  const seconds = body.type === 'video' ? body.duration_seconds! : null;
  const [row] = await ctx.db('media_assets').insert({
    id: newId('media_'), account_id: body.account_id, type: body.type, prompt: body.prompt, resolution,
    duration_seconds: seconds, status: 'pending', currency: MEDIA_CURRENCY, price: priceOf(body.type, resolution, seconds),
  }).returning('*');
  await postMediaPrice(ctx.db, row, 'reserved');
  await ctx.addJob(...generateMediaJob(row.id));
  return resources.MediaAsset.view({ ...row, $content_type: null });
};
