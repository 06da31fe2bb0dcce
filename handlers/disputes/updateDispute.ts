import type { Handler } from '../../generated/handler.js';
import { editEvidence } from './edit-evidence.js';

/** PATCH /disputes/{id}: sets the evidence fields sent, while the dispute needs a response and before its deadline. */
export const updateDispute: Handler<'updateDispute'> = async ({ path, body }, ctx) => editEvidence(ctx, path.id, body.evidence);
