import type { Handler } from '../../generated/handler.js';
import { moveCampaign } from './campaign-moves.js';

/** POST /ad_campaigns/{id}/unpause: paused → active (payment_failed resumes only by a successful payment retry). */
export const unpauseAdCampaign: Handler<'unpauseAdCampaign'> = async ({ path }, ctx) => moveCampaign(ctx, path.id, 'unpause');
