// Loading this area's rows for a write: locked, 404 when invisible, 403 without ads:manage.
import { ApiError } from '../../runtime/errors.js';
import type { HandlerContext } from '../../generated/handler.js';
import { loadOwned } from '../../runtime/ownership.js';
import { resources } from '../../generated/resources.js';
import type { AdCampaignRow, AdGroupRow, AdRow } from '../../generated/rows.js';

export const SCOPES = ['ads:manage'];
export const READ_SCOPES = ['ads:read'];
export const lockCampaign = (ctx: HandlerContext, id: string, param?: string): Promise<AdCampaignRow> => withParam(loadOwned(ctx, resources.AdCampaign, id, SCOPES, { read: 'lock' }), param);
export const lockGroup = (ctx: HandlerContext, id: string, param?: string): Promise<AdGroupRow> => withParam(loadOwned(ctx, resources.AdGroup, id, SCOPES, { read: 'lock' }), param);
export const lockAd = (ctx: HandlerContext, id: string): Promise<AdRow> => loadOwned(ctx, resources.Ad, id, SCOPES, { read: 'lock' });

/** A 404 for a body reference names the body field rather than the path's id. */
async function withParam<R>(p: Promise<R>, param?: string): Promise<R> {
  try { return await p; } catch (e) {
    if (param && e instanceof ApiError && e.status === 404) throw new ApiError(404, e.type, e.message, param);
    throw e;
  }
}
