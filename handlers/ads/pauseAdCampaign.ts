import type { Handler } from '../../generated/handler.js';
import { moveCampaign } from './campaign-moves.js';

/** POST /ad_campaigns/{id}/pause: active → paused; delivery stops from the next hour. */
export const pauseAdCampaign: Handler<'pauseAdCampaign'> = async ({ path }, ctx) => moveCampaign(ctx, path.id, 'pause');
